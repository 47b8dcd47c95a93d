import OverlayKit

/// The page at `/`: MapLibre GL JS showing `/style.json`, fitted to the data's bounds, with a
/// panel holding the layer list (a switch per vector layer), a tile-boundary switch and the
/// feature inspector (click a feature: its layer and properties). `#zoom/lat/lon` in the URL
/// sets the view (MapLibre's `hash`), `?panel=0` hides the panel and the attribution button (a bare map, for screenshots), `?inspect=lon,lat` opens the
/// inspector at that place once the map is idle. The page reports MapLibre's errors and its
/// first idle to `/client-event`, which `serve` prints, logs the errors on the console, and
/// resolves `window.overlaykitIdle` at the first idle (for scripts driving the page). When the
/// script does not load (offline, with the CDN default) the page says so and names `--maplibre-js`.
enum PreviewPage {
    static func html(site: PreviewSite) -> [UInt8] {
        let script = site.options.mapLibreScript == nil
            ? "https://unpkg.com/maplibre-gl@\(PreviewSite.mapLibreVersion)/dist/maplibre-gl.js" : "/maplibre-gl.js"
        let stylesheet = site.options.mapLibreScript == nil
            ? "https://unpkg.com/maplibre-gl@\(PreviewSite.mapLibreVersion)/dist/maplibre-gl.css" : "/maplibre-gl.css"
        var config = JSONObject()
        config.append("script", .string(script))
        if let bounds = site.bounds {
            let south = max(bounds.south, -85.05), north = min(bounds.north, 85.05)
            config.append("bounds", .array([.number(bounds.west), .number(south), .number(bounds.east), .number(north)]))
        }
        config.append("layers", .array(site.tileSets.flatMap { tileSet in
            tileSet.provider.metadata.vectorLayers.map { layer -> JSONValue in
                .object(["tileSet": .string(tileSet.id), "title": .string(tileSet.title), "layer": .string(layer.id),
                         "ids": .array(MapLibreStyle.layerIDs(source: tileSet.id, layer: layer.id, labels: true).map { .string($0) })])
            }
        }))
        // Inside <script>, "</" could end the element early.
        let configText = String(decoding: JSONValue.object(config).jsonBytes, as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
        return Array((head(script: script, stylesheet: stylesheet) + "<script>const config = \(configText);\n" + body + "</script></body></html>\n").utf8)
    }

    private static func head(script: String, stylesheet: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>overlaykit serve</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="\(stylesheet)">
        <script src="\(script)"></script>
        <style>
        html, body { margin: 0; height: 100%; font: 13px/1.4 system-ui, sans-serif; color: #1a1a1a; }
        #map { position: absolute; inset: 0; }
        #panel { position: absolute; top: 10px; right: 10px; width: 300px; max-height: calc(100% - 20px); overflow: auto;
                 background: rgba(255,255,255,0.95); border-radius: 6px; box-shadow: 0 1px 4px rgba(0,0,0,0.3); padding: 8px 12px; }
        body.bare #panel, body.bare .maplibregl-ctrl-bottom-right { display: none; }
        h1 { font-size: 15px; margin: 4px 0 8px; } h2 { font-size: 13px; margin: 10px 0 4px; color: #555; }
        ul { list-style: none; margin: 0; padding: 0; } li label { display: block; padding: 2px 0; }
        .layer-title { color: #777; font-size: 11px; }
        table { border-collapse: collapse; width: 100%; margin-bottom: 8px; } td { border-top: 1px solid #eee; padding: 2px 4px; vertical-align: top; word-break: break-word; }
        td:first-child { color: #555; white-space: nowrap; } .feature-head { font-weight: 600; margin-top: 6px; }
        #status { color: #b00; }
        </style></head>
        <body><div id="map"></div>
        <aside id="panel"><h1>overlaykit serve</h1>
        <h2>Layers</h2><ul id="layers"></ul>
        <h2>Map</h2><label><input type="checkbox" id="boundaries"> tile boundaries</label>
        <h2>Inspector</h2><div id="inspector">Click a feature to see its properties.</div>
        <div id="status"></div></aside>

        """
    }

    private static let body = #"""
    const params = new URLSearchParams(location.search);
    if (params.get('panel') === '0') document.body.classList.add('bare');
    const report = (type, message) => fetch('/client-event?type=' + encodeURIComponent(type) + '&message=' +
      encodeURIComponent(message || '')).catch(() => {});
    const showError = (message) => {
      document.getElementById('status').textContent = message;
      console.error(message);
      report('error', message);
    };
    // Set when MapLibre is missing: the error that stops this script is then not reported twice.
    let mapLibreMissing = false;
    window.addEventListener('error', (event) => { if (!mapLibreMissing) showError(String(event.message)); });
    if (typeof maplibregl === 'undefined') {
      mapLibreMissing = true;
      // Offline, or the script path is wrong: say so instead of a blank page.
      const message = 'MapLibre GL JS could not load from ' + config.script + '. Without the internet, start serve with ' +
        '--maplibre-js FILE (a local maplibre-gl.js, e.g. from the PyPI wheel maplibre).';
      const notice = document.getElementById('map');
      notice.style.cssText = 'display:flex;align-items:center;justify-content:center;padding:40px 360px 40px 40px;color:#b00;font-size:16px;';
      notice.textContent = message;
      showError(message);
      throw new Error(message);
    }
    const options = { container: 'map', style: location.origin + '/style.json', hash: true, fadeDuration: 0,
      maxPitch: 85, canvasContextAttributes: { preserveDrawingBuffer: true } };
    if (config.bounds && !location.hash) { options.bounds = config.bounds; options.fitBoundsOptions = { padding: 40 }; }
    const map = new maplibregl.Map(options);
    // Resolved at the first idle: what a test (or a script driving the page) waits on.
    let markIdle;
    window.overlaykitIdle = new Promise((resolve) => { markIdle = resolve; });
    map.on('error', (event) => showError(String(event.error && event.error.message || event.error || 'map error')));

    const list = document.getElementById('layers');
    for (const entry of config.layers) {
      const item = document.createElement('li');
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox'; box.checked = true;
      box.addEventListener('change', () => {
        for (const id of entry.ids) if (map.getLayer(id)) map.setLayoutProperty(id, 'visibility', box.checked ? 'visible' : 'none');
      });
      const title = document.createElement('span');
      title.className = 'layer-title';
      title.textContent = ' ' + entry.title;
      label.append(box, ' ' + entry.layer, title);
      item.append(label);
      list.append(item);
    }
    document.getElementById('boundaries').addEventListener('change', (event) => { map.showTileBoundaries = event.target.checked; });

    const inspector = document.getElementById('inspector');
    function inspect(point) {
      const features = map.queryRenderedFeatures(point);
      inspector.replaceChildren();
      if (features.length === 0) { inspector.textContent = 'No feature here.'; return; }
      for (const feature of features.slice(0, 20)) {
        const head = document.createElement('div');
        head.className = 'feature-head';
        head.textContent = feature.source + ' / ' + feature.sourceLayer + ' (' + feature.geometry.type + ')' +
          (feature.id !== undefined ? ' #' + feature.id : '');
        const table = document.createElement('table');
        for (const [key, value] of Object.entries(feature.properties)) {
          const row = table.insertRow();
          row.insertCell().textContent = key;
          row.insertCell().textContent = typeof value === 'object' ? JSON.stringify(value) : String(value);
        }
        inspector.append(head, table);
      }
    }
    map.on('click', (event) => inspect(event.point));
    map.on('mousemove', (event) => {
      map.getCanvas().style.cursor = map.queryRenderedFeatures(event.point).length ? 'pointer' : '';
    });
    map.once('idle', () => {
      const place = params.get('inspect');
      if (place) {
        const [lon, lat] = place.split(',').map(Number);
        inspect(map.project([lon, lat]));
      }
      document.title = 'overlaykit serve (idle)';
      report('idle', '');
      markIdle();
    });

    """#
}
