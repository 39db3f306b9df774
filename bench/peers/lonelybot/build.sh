#!/bin/sh
# Build lonelybot's driver `pk` (bench/lonelybot_peer.py) offline, from snapshots of the
# repositories (git directories; on a machine with internet, `git clone` them):
#
#   MIRROR=/work/.mirror sh bench/peers/lonelybot/build.sh [OUT]
#
# Two builds, both from vuonghy2442/lonelybot:
#   OUT/solver/pk  commit 7db65e6 (2025-05-04, its last with rand 0.9: the solver with
#                  its "more dominances"), for `lonelybot_peer.py solve`;
#   OUT/player/pk  commit 3e88e66 (2024-05-14, the version whose README gives the
#                  player's 47.58 %), for `lonelybot_peer.py hop` (7db65e6's player can
#                  alternate two moves for ever: see pk.rs).
# Crates.io is out of reach here, so the dependencies are path dependencies on tagged
# snapshots (rand 0.9.2, rand_mt 4.2.2, arrayvec 0.7.6, hashbrown 0.15.5 / 0.14.x,
# static_assertions 1.1.0, uint 0.10.0 / 0.9.5) and Debian's packaged crates
# (apt-get install librust-rand-dev librust-byteorder-dev librust-crunchy-dev
# librust-hex-dev), with their optional dependencies removed (strip_optional.py).
# Local changes to lonelybot, none in its search: rand_mt 4's Mt through its own
# next_u32 (the Solvitaire shuffle, unused here), std linked in 3e88e66 (f64::ln).
set -eu
MIRROR=${MIRROR:-/work/.mirror}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-/tmp/lonelybot-build}
mkdir -p "$OUT" && cd "$OUT"
exp() { rm -rf "$3"; mkdir -p "$3"; git -C "$MIRROR/$1/repo" archive "$2" | tar -x -C "$3"; }
exp vuonghy2442+lonelybot 7db65e6 solver
exp vuonghy2442+lonelybot 3e88e66 player
exp rust-random+rand 0.9.2 rand
exp artichoke+rand_mt b5b1cf5 rand_mt
exp artichoke+rand_mt b5b1cf5 rand_mt4
exp bluss+arrayvec 0.7.6 arrayvec
exp rust-lang+hashbrown v0.15.5 hashbrown
exp rust-lang+hashbrown "$(git -C "$MIRROR/rust-lang+hashbrown/repo" tag | grep '^v0.14' | sort -V | tail -1)" hashbrown14
exp nvzqz+static-assertions-rs v1.1.0 static_assertions
exp paritytech+parity-common 63c5afbf pc
exp paritytech+parity-common uint-v0.9.5 pc95
python3 - <<'PY'
import re
p = "rand/Cargo.toml"; s = open(p).read()
s = re.sub(r'\[workspace\]\nmembers = \[[^\]]*\]\n(exclude = \[[^\]]*\]\n)?', '', s)
open(p, "w").write(s)
p = "arrayvec/Cargo.toml"; s = open(p).read()
s = re.sub(r'\[dependencies\.(borsh|serde|zeroize)\][^\[]*', '', s)
open(p, "w").write(s)
PY
python3 "$HERE/strip_optional.py" rand/Cargo.toml rand/rand_core/Cargo.toml rand_mt/Cargo.toml \
    arrayvec/Cargo.toml hashbrown/Cargo.toml hashbrown14/Cargo.toml pc/uint/Cargo.toml \
    pc95/uint/Cargo.toml
sed -i 's/^nightly = \[.*bumpalo.*\]/nightly = []/' hashbrown/Cargo.toml hashbrown14/Cargo.toml
sed -i 's|^static_assertions = .*|static_assertions = { path = "../../static_assertions" }|' \
    pc/uint/Cargo.toml pc95/uint/Cargo.toml
mkdir -p .cargo
cat > .cargo/config.toml <<'TOML'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
TOML
python3 - <<'PY'
import re
def manifest(path, rand, rand_mt, hashbrown, uint):
    s = open(path).read()
    s = re.sub(r'workspace = \{[^}]*\}\n', '', s)
    s = re.sub(r'rand = \{ version = "[^"]+"', rand, s)
    s = re.sub(r'rand_mt = ("[^"]+"|\{[^}]*\})', rand_mt, s)
    s = re.sub(r'arrayvec = \{ version = "[^"]+"', 'arrayvec = { path = "../arrayvec"', s)
    s = re.sub(r'hashbrown = \{ version = "[^"]+"', f'hashbrown = {{ path = "../{hashbrown}"', s)
    s = s.replace('static_assertions = "1.1.0"', 'static_assertions = { path = "../static_assertions" }')
    s = re.sub(r'uint = \{ version = "[^"]+"', f'uint = {{ path = "../{uint}/uint"', s)
    s = re.sub(r'\[dev-dependencies\][^\[]*', '', s)
    s = re.sub(r'\[\[bench\]\][^\[]*', '', s)
    open(path, "w").write(s)
manifest("solver/Cargo.toml", 'rand = { path = "../rand"',
         'rand_mt = { path = "../rand_mt", default-features = false }', "hashbrown", "pc")
manifest("player/Cargo.toml", 'rand = { version = "0.8.5"', 'rand_mt = { path = "../rand_mt4" }',
         "hashbrown14", "pc95")
p = "solver/src/shuffler.rs"; s = open(p).read()
s = s.replace("fn uniform_int<R: RngCore>(a: u32, b: u32, rng: &mut R) -> u32 {",
              "fn uniform_int(a: u32, b: u32, rng: &mut Mt) -> u32 {")
open(p, "w").write(s)
p = "player/src/lib.rs"; s = open(p).read()
open(p, "w").write(s.replace("#![cfg_attr(not(test), no_std)]", ""))
PY
rm -rf solver/lonecli solver/benches player/lonecli player/benches
mkdir -p solver/src/bin player/src/bin
cp "$HERE/pk.rs" solver/src/bin/pk.rs
cp "$HERE/pk_2024.rs" player/src/bin/pk.rs
(cd solver && cargo build --release --bin pk)
(cd player && cargo build --release --bin pk)
mkdir -p "$OUT/bin"
ln -sf "$OUT/solver/target/release/pk" "$OUT/bin/pk-solver"
ln -sf "$OUT/player/target/release/pk" "$OUT/bin/pk-player"
echo "built: $OUT/bin/pk-solver and $OUT/bin/pk-player"
