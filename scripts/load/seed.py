#!/usr/bin/env python3
"""Seeds a Cairn namespace through its public HTTP API, for scripts/load.sh.

  seed.py memories URL TOKEN NAMESPACE N LOCOMO_JSON QUERIES_OUT
      writes N LoCoMo conversation turns as memories (POST memories) and the LoCoMo questions,
      one per line, to QUERIES_OUT
  seed.py documents URL TOKEN NAMESPACE N SCIFACT_DIR QUERIES_OUT
      ingests the first N SciFact abstracts (POST documents) and writes the SciFact queries to
      QUERIES_OUT

Writes run on 4 threads. Prints one summary line. Dataset text goes only to the server under
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
    status = call(url, token, "POST", "/v1/namespaces", {"name": ns})
    if status not in (201, 409):
        sys.exit(f"seed: cannot create namespace {ns}: HTTP {status}")


def write_all(url, token, path, bodies):
    start = time.monotonic()
    with ThreadPoolExecutor(WORKERS) as pool:
        statuses = list(pool.map(lambda b: call(url, token, "POST", path, b), bodies))
    ok = sum(1 for s in statuses if s in (200, 201))
    return ok, len(statuses) - ok, time.monotonic() - start


def locomo(url, token, ns, n, source, queries_out):
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
    if len(sys.argv) != 8 or sys.argv[1] not in ("memories", "documents"):
        sys.exit(__doc__)
    kind, url, token, ns, n, source, out = sys.argv[1:]
    (locomo if kind == "memories" else scifact)(url.rstrip("/"), token, ns, int(n), source, out)
