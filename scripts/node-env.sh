# Sourced by the project's scripts: puts a Node.js >= 22 first on PATH.
# These machines ship Node 20, and `ai` 7 needs 22+, so when the system Node is older
# we install Node 24 from the npm registry's `node` package into .tools/node (git-ignored).
_ss_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_ss_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ -x "$_ss_root/.tools/node/node_modules/.bin/node" ]; then
  export PATH="$_ss_root/.tools/node/node_modules/.bin:$PATH"
elif ! command -v node >/dev/null 2>&1 || [ "$(_ss_major node)" -lt 22 ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "scorestream: Node.js >= 22 is required and npm is missing to fetch it; install Node.js 22+ (https://nodejs.org)" >&2
    return 1 2>/dev/null || exit 1
  fi
  echo "scorestream: system Node is $(node --version 2>/dev/null || echo absent); installing Node 24 into .tools/node" >&2
  mkdir -p "$_ss_root/.tools/node"
  npm install --silent --no-save --no-audit --no-fund --prefix "$_ss_root/.tools/node" node@24 >&2 || {
    echo "scorestream: could not install Node 24 from the npm registry" >&2; return 1 2>/dev/null || exit 1; }
  export PATH="$_ss_root/.tools/node/node_modules/.bin:$PATH"
fi
unset -f _ss_major; unset _ss_root
