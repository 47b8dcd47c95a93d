#!/bin/sh
# Installs overlaykit's shell completions (bash, zsh, fish) and its man page for the current
# user, from the binary itself (swift-argument-parser writes both from the command tree).
#
#   swift build -c release
#   Scripts/install-completions.sh [path/to/overlaykit]     (default .build/release/overlaykit)
#
# Bash: ~/.local/share/bash-completion/completions/overlaykit (bash-completion loads it).
# Zsh:  ~/.zfunc/_overlaykit (add `fpath=(~/.zfunc $fpath); autoload -U compinit; compinit` to ~/.zshrc).
# Fish: ~/.config/fish/completions/overlaykit.fish.
# Man:  ~/.local/share/man/man1/overlaykit.1 (from `swift package generate-manual`; `man overlaykit`).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-"$root/.build/release/overlaykit"}
[ -x "$binary" ] || { echo "install-completions: no overlaykit at $binary; run swift build -c release or name the binary" >&2; exit 66; }
data=${XDG_DATA_HOME:-"$HOME/.local/share"}
config=${XDG_CONFIG_HOME:-"$HOME/.config"}
mkdir -p "$data/bash-completion/completions" "$HOME/.zfunc" "$config/fish/completions" "$data/man/man1"
"$binary" --generate-completion-script bash > "$data/bash-completion/completions/overlaykit"
"$binary" --generate-completion-script zsh > "$HOME/.zfunc/_overlaykit"
"$binary" --generate-completion-script fish > "$config/fish/completions/overlaykit.fish"
echo "completions: $data/bash-completion/completions/overlaykit, $HOME/.zfunc/_overlaykit, $config/fish/completions/overlaykit.fish"
# The man page: argument-parser's generate-manual plugin writes it from the same command tree.
(cd "$root" && swift package generate-manual >/dev/null)
page=$(find "$root/.build/plugins/GenerateManual/outputs" -name 'overlaykit.1' | head -n 1)
[ -n "$page" ] || { echo "install-completions: generate-manual wrote no overlaykit.1" >&2; exit 74; }
cp "$page" "$data/man/man1/overlaykit.1"
echo "man page: $data/man/man1/overlaykit.1"
