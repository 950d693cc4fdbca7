#!/usr/bin/env python3
"""Writes a long recording quickly for bench/replay: the frames of a short real
one (SOURCE, from `musatop record --demo`) repeated with times moved on by STEP
seconds, compressed as the recorder does (one gzip member, a sync flush a line).
    make_recording.py SOURCE OUT FRAMES STEP"""
import datetime
import gzip
import json
import sys
import zlib

source, out, frames, step = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
with gzip.open(source, "rt") as f:
    lines = f.read().splitlines()
header, samples = json.loads(lines[0]), [json.loads(line) for line in lines[1:] if line]
start = datetime.datetime.fromisoformat(header["started_at"])
header["interval_seconds"] = step
compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
with open(out, "wb") as f:
    f.write(compressor.compress((json.dumps(header, separators=(",", ":")) + "\n").encode()))
    f.write(compressor.flush(zlib.Z_SYNC_FLUSH))
    for i in range(frames):
        frame = samples[i % len(samples)]
        when = (start + datetime.timedelta(seconds=i * step)).isoformat(timespec="microseconds")
        for key in ("sampled_at", "devices_sampled_at", "processes_sampled_at"):
            if key in frame:
                frame[key] = when
        f.write(compressor.compress((json.dumps(frame, separators=(",", ":")) + "\n").encode()))
        f.write(compressor.flush(zlib.Z_SYNC_FLUSH))
    f.write(compressor.flush(zlib.Z_FINISH))
