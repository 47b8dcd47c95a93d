// `import OverlayKit` alone gives a user the model types (`Feature`, `Shape`, `MapPoint`,
// `Diagnostic`…) too.
@_exported import OverlayModel
