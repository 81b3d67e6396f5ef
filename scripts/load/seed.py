#!/usr/bin/env python3
"""Seeds a Cairn namespace through its public HTTP API, for scripts/load.sh.

  seed.py memories URL TOKEN NAMESPACE N LOCOMO_JSON QUERIES_OUT
      writes N LoCoMo conversation turns as memories (POST memories) and the LoCoMo questions,
      one per line, to QUERIES_OUT
  seed.py documents URL TOKEN NAMESPACE N SCIFACT_DIR QUERIES_OUT
      ingests the first N SciFact abstracts (POST documents) and writes the SciFact queries to
      QUERIES_OUT
  seed.py spread URL TOKEN PREFIX NxM LOCOMO_JSON QUERIES_OUT
      creates N namespaces PREFIX-000, PREFIX-001, ... and writes M consecutive LoCoMo turns into
      each (the turns start again from the first when N x M is more than LoCoMo has), for
      scripts/load-nginx.sh; the LoCoMo questions go to QUERIES_OUT

Namespaces are created with recallScope "namespace", so a recall without userId reads them.
Writes run on 4 threads (spread: 8, for several servers). Prints one summary line. Dataset text goes only to the server under
test and the temporary query file, never into the project.
"""
import json
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

WORKERS = 4


def call(url, token, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + token)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def ensure_namespace(url, token, ns):
    status = call(url, token, "POST", "/v1/namespaces", {"name": ns, "recallScope": "namespace"})
    if status not in (201, 409):
        sys.exit(f"seed: cannot create namespace {ns}: HTTP {status}")


def write_all(url, token, path, bodies, workers=WORKERS):
    """POSTs each body to its path (one path for all, or a list of one path per body)."""
    paths = path if isinstance(path, list) else [path] * len(bodies)
    start = time.monotonic()
    with ThreadPoolExecutor(workers) as pool:
        statuses = list(pool.map(lambda pb: call(url, token, "POST", pb[0], pb[1]),
                                 zip(paths, bodies)))
    ok = sum(1 for s in statuses if s in (200, 201))
    return ok, len(statuses) - ok, time.monotonic() - start


def locomo_turns(source):
    """Every LoCoMo turn as a memory body, in conversation order, and the questions."""
    conversations = json.load(open(source))
    bodies, questions = [], []
    for c, sample in enumerate(conversations):
        conv = sample["conversation"]
        sessions = sorted(
            (k for k in conv if k.startswith("session_") and not k.endswith("date_time")),
            key=lambda k: int(k.split("_")[1]))
        for s in sessions:
            for turn in conv[s]:
                bodies.append({
                    "type": "event",
                    "content": f"{turn['speaker']}: {turn['text']}",
                    "sessionName": f"conv{c}-{s}",
                    "tags": ["locomo"],
                })
        questions += [qa["question"] for qa in sample.get("qa", []) if qa.get("question")]
    return bodies, questions


def locomo(url, token, ns, n, source, queries_out):
    bodies, questions = locomo_turns(source)
    bodies = bodies[:n]
    if len(bodies) < n:
        print(f"seed: LoCoMo has only {len(bodies)} turns", file=sys.stderr)
    ensure_namespace(url, token, ns)
    ok, failed, took = write_all(url, token, f"/v1/namespaces/{ns}/memories", bodies)
    write_queries(questions, queries_out)
    print(f"seed: {ok} memories written to {ns} ({failed} refused) in {took:.0f} s; "
          f"{len(set(questions))} distinct LoCoMo questions")


def scifact(url, token, ns, n, source, queries_out):
    bodies = []
    with open(f"{source}/corpus.jsonl") as f:
        for line in f:
            if len(bodies) >= n:
                break
            doc = json.loads(line)
            bodies.append({
                "id": f"scifact-{doc['_id']}",
                "title": doc.get("title") or doc["_id"],
                "content": doc["text"],
                "format": "text",
            })
    with open(f"{source}/queries.jsonl") as f:
        questions = [json.loads(line)["text"] for line in f if line.strip()]
    ensure_namespace(url, token, ns)
    ok, failed, took = write_all(url, token, f"/v1/namespaces/{ns}/documents", bodies)
    write_queries(questions, queries_out)
    print(f"seed: {ok} SciFact documents ingested into {ns} ({failed} refused) in {took:.0f} s; "
          f"{len(set(questions))} distinct SciFact queries")


def spread(url, token, prefix, shape, source, queries_out):
    n, m = (int(x) for x in shape.split("x"))
    turns, questions = locomo_turns(source)
    names = [f"{prefix}-{i:03d}" for i in range(n)]
    start = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda ns: ensure_namespace(url, token, ns), names))
    paths, bodies = [], []
    for i, ns in enumerate(names):
        for j in range(m):
            paths.append(f"/v1/namespaces/{ns}/memories")
            bodies.append(turns[(i * m + j) % len(turns)])
    ok, failed, took = write_all(url, token, paths, bodies, workers=8)
    write_queries(questions, queries_out)
    print(f"seed: {n} namespaces created and {ok} memories written ({failed} refused) in "
          f"{time.monotonic() - start:.0f} s; {len(set(questions))} distinct LoCoMo questions")


def write_queries(questions, out):
    seen, distinct = set(), []
    for q in questions:
        q = " ".join(q.split())
        if q and q not in seen:
            seen.add(q)
            distinct.append(q)
    with open(out, "w") as f:
        f.write("\n".join(distinct) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 8 or sys.argv[1] not in ("memories", "documents", "spread"):
        sys.exit(__doc__)
    kind, url, token, ns, n, source, out = sys.argv[1:]
    if kind == "spread":
        spread(url.rstrip("/"), token, ns, n, source, out)
    else:
        (locomo if kind == "memories" else scifact)(url.rstrip("/"), token, ns, int(n), source, out)
