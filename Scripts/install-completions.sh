#!/bin/sh
# Installs overlaykit's shell completions (bash, zsh, fish) and its man page for the current
# user, from the binary itself (swift-argument-parser writes both from the command tree).
#
#   Scripts/install-completions.sh [path/to/overlaykit]   (default: the overlaykit on PATH,
#                                                           else .build/release/overlaykit)
#
# Bash: ~/.local/share/bash-completion/completions/overlaykit (bash-completion loads it).
# Zsh:  ~/.zfunc/_overlaykit (add `fpath=(~/.zfunc $fpath); autoload -U compinit; compinit` to ~/.zshrc).
# Fish: ~/.config/fish/completions/overlaykit.fish.
# Man:  ~/.local/share/man/man1/overlaykit.1 (`man overlaykit`).
#
# The man page comes from argument-parser's generate-manual tool, built on its own under
# .build/generate-manual and run on the given binary. (`swift package generate-manual` would
# rebuild the whole package in release mode, replacing a static .build/release/overlaykit.)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$(command -v overlaykit || echo "$root/.build/release/overlaykit")}
[ -x "$binary" ] || { echo "install-completions: no overlaykit at $binary; build it (README, Set-up) or name the binary" >&2; exit 66; }
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")
data=${XDG_DATA_HOME:-"$HOME/.local/share"}
config=${XDG_CONFIG_HOME:-"$HOME/.config"}
mkdir -p "$data/bash-completion/completions" "$HOME/.zfunc" "$config/fish/completions" "$data/man/man1"
"$binary" --generate-completion-script bash > "$data/bash-completion/completions/overlaykit"
"$binary" --generate-completion-script zsh > "$HOME/.zfunc/_overlaykit"
"$binary" --generate-completion-script fish > "$config/fish/completions/overlaykit.fish"
echo "completions: $data/bash-completion/completions/overlaykit, $HOME/.zfunc/_overlaykit, $config/fish/completions/overlaykit.fish"

# The man page.
parser="$root/.build/checkouts/swift-argument-parser"
# Resolve only when needed: `swift package` takes the lock on .build, which a running
# `swift build`/`swift test` of this package holds.
[ -d "$parser" ] || (cd "$root" && swift package resolve >/dev/null)
[ -d "$parser" ] || { echo "install-completions: swift-argument-parser is not checked out at $parser" >&2; exit 74; }
swift build --package-path "$parser" --scratch-path "$root/.build/generate-manual" --product generate-manual >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# generate-manual drops non-ASCII characters ("2^(20−z)" became "2^(20z)") and escapes only a
# help text's first line, so a later line starting with "." (".pmtiles and …") was read as a
# macro. It reads the command tree from `overlaykit --experimental-dump-help`; a stand-in named
# overlaykit marks those places in that JSON with ASCII tokens, and the page gets troff escapes
# for them: \[uXXXX] for each non-ASCII character, \& before a leading "." or "'", .Pp for a
# blank line (mdoc warns on empty input lines).
mkdir "$work/bin" "$work/man"
cat > "$work/bin/overlaykit" <<STANDIN
#!/bin/sh
"$binary" "\$@" | perl -CSD -pe 's/\\\\n\\\\n/\\\\n\@\@OKPP\@\@\\\\n/g; s/\\\\n([.'"'"'])/\\\\n\@\@OKZW\@\@\$1/g; s/([^\\x00-\\x7f])/sprintf("\@\@OKU%04X\@\@", ord(\$1))/ge'
STANDIN
chmod +x "$work/bin/overlaykit"
"$root/.build/generate-manual/debug/generate-manual" "$work/bin/overlaykit" --output-directory "$work/man"
perl -pe 's/\@\@OKPP\@\@/.Pp/g; s/\@\@OKZW\@\@/\\&/g; s/\@\@OKU([0-9A-F]{4,6})\@\@/\\[u$1]/g' "$work/man/overlaykit.1" > "$data/man/man1/overlaykit.1"
echo "man page: $data/man/man1/overlaykit.1"
