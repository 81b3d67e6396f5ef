#!/usr/bin/env python3
"""Holds N stalled connections to a Cairn server for scripts/load.sh's `stalled` scenario.

  stall.py HOST PORT N SECONDS

Each connection sends half a request head (a request line and part of a header, no blank line)
and then nothing; when the server closes one, its lifetime is recorded and a new one takes its
place, so N are held for SECONDS. Prints one summary line: connections opened, how many the
server closed, and after how long (min / median / max seconds).
"""
import asyncio
import statistics
import sys
import time

HALF_HEAD = b"POST /v1/namespaces/load/recall HTTP/1.1\r\nHost: localhost\r\nX-Stalled: "


async def hold_one(host, port, until, lifetimes, counts):
    while time.monotonic() < until:
        opened = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            counts["refused"] += 1
            await asyncio.sleep(0.5)
            continue
        counts["opened"] += 1
        try:
            writer.write(HALF_HEAD)
            await writer.drain()
            remaining = until - time.monotonic()
            data = await asyncio.wait_for(reader.read(65536), timeout=max(remaining, 0.01))
            while data:  # the server may answer something before closing; read to the end
                data = await asyncio.wait_for(reader.read(65536), timeout=max(until - time.monotonic(), 0.01))
            lifetimes.append(time.monotonic() - opened)
        except (asyncio.TimeoutError, TimeoutError):
            writer.close()  # still held when the run ended
            return
        except OSError:
            lifetimes.append(time.monotonic() - opened)
        finally:
            if not writer.is_closing():
                writer.close()


async def main(host, port, n, seconds):
    until = time.monotonic() + seconds
    lifetimes, counts = [], {"opened": 0, "refused": 0}
    await asyncio.gather(*(hold_one(host, port, until, lifetimes, counts) for _ in range(n)))
    if lifetimes:
        summary = (f"closed by the server after min {min(lifetimes):.1f} s, "
                   f"median {statistics.median(lifetimes):.1f} s, max {max(lifetimes):.1f} s")
    else:
        summary = "none closed by the server"
    print(f"stalled: held {n} for {seconds} s; opened {counts['opened']}, "
          f"{len(lifetimes)} {summary}; refused connects {counts['refused']}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
