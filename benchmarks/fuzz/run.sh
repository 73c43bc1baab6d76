#!/usr/bin/env bash
# Coverage-guided fuzzing of the codecs' entry points and the plug-ins' decisions (issue 22), one Jazzer target at a time (Jazzer fuzzes one
# target per JVM): each runs until its budget (10 million inputs, @FuzzTest maxExecutions) or DURATION, whichever
# comes first. Each target starts from the inputs of its module's src/test/resources/fuzz/NAME.hex (seeds: valid and
# captured datagrams; then what earlier runs kept), copied into Jazzer's corpus directory. Afterwards the corpus goes
# back into NAME.hex, which the suite replays (FuzzCorpus: *FuzzFindingsTest, the codecs' property tests); a finding
# (Jazzer's crash-* file) is added there too, marked, and the run exits 1.
#
#   benchmarks/fuzz/run.sh                 # every target, 10M inputs each (hours on 2 cores)
#   DURATION=10m benchmarks/fuzz/run.sh    # every target for at most ten minutes
#   benchmarks/fuzz/run.sh gtp radius      # some targets
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# name module package class method
TARGETS="gtp protocol-codecs io.switchboard.codec.gtp GtpFuzzTest decoders
radius protocol-codecs io.switchboard.codec.radius RadiusFuzzTest decoders
mip protocol-codecs io.switchboard.codec.mip MipFuzzTest decoders
r6 protocol-codecs io.switchboard.codec.asn.r6 R6FuzzTest decoders
gtp-ies protocol-codecs io.switchboard.codec.gtp GtpIesFuzzTest decoders
gtp-inspect gtp-director io.switchboard.director.gtp GtpInspectFuzzTest decisions
gtp-director gtp-director io.switchboard.director.gtp GtpDecisionFuzzTest decisions
radius-director radius-director io.switchboard.director.radius RadiusDecisionFuzzTest decisions
ha ha-director io.switchboard.director.ha HaFuzzTest decisions
asn asn-director io.switchboard.director.asn AsnFuzzTest decisions"

DURATION=${DURATION:-0}
wanted=" ${*:-gtp radius mip r6 gtp-ies gtp-inspect gtp-director radius-director ha asn} "
findings=0
mvn -B -q -o -pl protocol-codecs,gtp-director,radius-director,ha-director,asn-director -am test-compile -DskipTests \
  >/dev/null || exit 2

while read -r name module package class method; do
  [[ "$wanted" == *" $name "* ]] || continue
  log=$(mktemp)
  corpus="$module/.cifuzz-corpus/$package.$class/$method"
  hex="$module/src/test/resources/fuzz/$name.hex"
  # The kept inputs are the fuzzer's start: one file each, named by content, in its corpus directory.
  if [ -f "$hex" ]; then
    mkdir -p "$corpus"
    grep -v '^#' "$hex" | sed 's/ *#.*//' | while read -r line; do
      f="$corpus/seed-$(printf '%s' "$line" | sha1sum | cut -c1-16)"
      [ -f "$f" ] || printf '%s' "$line" | xxd -r -p >"$f"
    done
  fi
  echo "== $name ($class), budget: 10M inputs${DURATION:+ or $DURATION}"
  start=$(date +%s)
  if [ "$DURATION" = 0 ]; then
    mvn -B -o -Pfuzz -pl "$module" -am test -Dtest="$class" -Dsurefire.failIfNoSpecifiedTests=false >"$log" 2>&1
  else
    timeout --signal=INT "$DURATION" mvn -B -o -Pfuzz -pl "$module" -am test -Dtest="$class" \
      -Dsurefire.failIfNoSpecifiedTests=false >"$log" 2>&1
  fi
  rc=$?
  seconds=$(( $(date +%s) - start ))
  # libFuzzer's last status line: "#N ... cov: C ft: F corp: K/..b ... exec/s: R"
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  echo "   ${seconds}s, exit $rc: ${last:-no status line (see $log)}"
  # Netty's sampled leak detector (the fuzz profile's level): a buffer a decoder lost is a finding too, though
  # its input is not known (the suite's paranoid replay of the corpus names it).
  if grep -q 'LEAK:' "$log"; then
    findings=$((findings + 1))
    echo "   a LEAK reported: see $module/target/fuzz-$name.log"
  fi

  inputs="$module/src/test/resources/${package//.//}/${class}Inputs/$method"
  mkdir -p "$(dirname "$hex")"
  [ -f "$hex" ] || printf '# %s: inputs kept from benchmarks/fuzz/run.sh runs of %s, one per line, replayed by the suite\n' \
      "$name" "$class" >"$hex"
  for f in "$inputs"/crash-* ; do
    [ -f "$f" ] || continue
    findings=$((findings + 1))
    # On the input's own line (FuzzCorpus reads hex up to a '#'), so that sorting the corpus keeps them together.
    printf '%s # finding %s (%s)\n' "$(od -An -v -tx1 "$f" | tr -d ' \n')" "$(basename "$f")" "$(date -u +%F)" >>"$hex"
    rm -f "$f"
  done
  if [ -d "$corpus" ]; then
    tmp=$(mktemp)
    for f in "$corpus"/*; do [ -f "$f" ] && od -An -v -tx1 "$f" | tr -d ' \n' && echo; done >"$tmp"
    grep -v '^#' "$hex" >>"$tmp"
    { grep '^#' "$hex"; sort -u "$tmp" | grep -v '^$'; } >"$hex.new" && mv "$hex.new" "$hex"
    rm -f "$tmp"
    echo "   corpus: $(grep -vc '^#' "$hex") inputs in $hex"
  fi
  # Jazzer's own output (the stack of a finding, its statistics), kept until the next run.
  mkdir -p "$module/target" && mv "$log" "$module/target/fuzz-$name.log"
done <<<"$TARGETS"

[ "$findings" = 0 ] || { echo "$findings finding(s): see the marked lines in src/test/resources/fuzz/*.hex"; exit 1; }
