#!/bin/sh
# capture.sh [NAME...]: records the golden captures of real peer traffic into
# internal/golden/captures/peer_NAME.pcapng (default: all of them). Each
# capture runs in a fresh private network namespace (unshare -n) where dumpcap
# records UDP on lo while run.sh runs one scenario. Needs root, the built
# peers (make) and dumpcap (tshark package).
#
# Re-recording changes GUIDs, ports and timestamps but not the sample values;
# internal/golden/captures/README.md describes each capture.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$here/.." && pwd)/internal/golden/captures
mkdir -p "$out"

# name  pub  sub  run.sh arguments...
scenarios() {
	cat <<'EOS'
cyclone_discovery   cyclone cyclone -reliable -transient-local -keys 3 -count 6
cyclone_besteffort  cyclone cyclone -best-effort -volatile -keys 3 -count 6
cyclone_dispose     cyclone cyclone -reliable -volatile -keys 3 -count 6 -dispose
cyclone_unregister  cyclone cyclone -reliable -volatile -keys 2 -count 2 -unregister
cyclone_domain7     cyclone cyclone -domain 7 -keys 2 -count 4
cyclone_xcdr2       cyclone cyclone -xcdr2 -keys 10 -count 100
cyclone_appendable  cyclone cyclone -appendable -keys 10 -count 100
cyclone_frag        cyclone cyclone -keys 1 -count 1 -payload 102400
fastdds_reliable    fastdds fastdds -reliable -transient-local -keys 3 -count 6 -S -linger=0.5s
fastdds_dispose     fastdds fastdds -reliable -volatile -keys 3 -count 6 -dispose -S -linger=0.5s
fastdds_frag        fastdds fastdds -keys 1 -count 1 -payload 102400 -S -linger=0.5s
fastdds_cyclone     fastdds cyclone -reliable -volatile -keys 3 -count 6 -dispose -P -settle=1.5s -S -linger=0.5s
cyclone_fastdds     cyclone fastdds -reliable -volatile -keys 3 -count 6
EOS
}

want=" $* "
failed=0
while read -r name pub sub args; do
	if [ $# -gt 0 ] && [ "${want#* "$name" }" = "$want" ]; then
		continue
	fi
	file="$out/peer_$name.pcapng"
	dir=$(mktemp -d /tmp/capture.XXXXXX)
	ok=
	for try in 1 2 3; do
		# shellcheck disable=SC2086
		if ! unshare -n "$here/run.sh" -q -o "$dir" -c "$file" "$pub" "$sub" $args -timeout 10s </dev/null; then
			echo "capture.sh: $name: scenario failed (try $try)" >&2
			continue
		fi
		# keep only complete captures: nothing dropped, user data present
		if ! grep -q "dropped on interface.*: [0-9]*/0 " "$dir/dumpcap.err"; then
			echo "capture.sh: $name: dumpcap dropped packets (try $try)" >&2
			continue
		fi
		n=$(tshark -r "$file" -Y 'rtps.sm.wrEntityId.entityKind == 0x02 && (rtps.sm.id == 0x15 || rtps.sm.id == 0x16)' 2>/dev/null | wc -l)
		if [ "$n" -eq 0 ]; then
			echo "capture.sh: $name: no user DATA captured (try $try)" >&2
			continue
		fi
		ok=1
		break
	done
	[ -n "$ok" ] || failed=1
	chmod 644 "$file"
	echo "  $(stat -c %s "$file") bytes, $(grep -c . "$dir/sub.out") lines received: $file"
	if [ -n "${CAPTURE_KEEP:-}" ]; then
		# CAPTURE_KEEP=DIR keeps what each peer printed, as DIR/NAME.pub, DIR/NAME.sub
		mkdir -p "$CAPTURE_KEEP"
		cp "$dir/pub.out" "$CAPTURE_KEEP/$name.pub"
		cp "$dir/sub.out" "$CAPTURE_KEEP/$name.sub"
	fi
	rm -rf "$dir"
done <<EOS
$(scenarios)
EOS
exit $failed
