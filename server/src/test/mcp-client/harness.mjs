// Drives Cairn's MCP server with the official MCP TypeScript SDK client, over streamable HTTP and
// over stdio (`cairn mcp`, forwarding to the server or on a data dir), and checks it with the MCP
// Inspector CLI. Every check is an assertion; the report (JSON) lists them, and the exit code is 0
// only when all passed. McpClientHarnessTest runs this; by hand:
//
//   CAIRN_URL=http://localhost:8080 CAIRN_ADMIN_TOKEN=... node harness.mjs
//
// Environment:
//   CAIRN_URL            a running server (required)
//   CAIRN_ADMIN_TOKEN    an admin token of it (required): namespaces and tokens are made per run
//   CAIRN_TARGETS        comma list of http, stdio-server, stdio-data (default http,stdio-server)
//   CAIRN_COMMAND        JSON array: the argv that runs the cairn command line (default the
//                        repository's ./cairn launcher)
//   CAIRN_STDIO_DATA     for stdio-data: the data dir `cairn mcp --data` opens (no server on it
//                        unless the store is PostgreSQL)
//   CAIRN_STDIO_DB_URL   for stdio-data on PostgreSQL: the JDBC URL (the server's database)
//   CAIRN_STDIO_NAMESPACE for stdio-data: an existing namespace there (default: one made through
//                        CAIRN_URL, which only works when both share the store)
//   CAIRN_REPORT         where to write the JSON report (default: stdout only)

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const env = process.env;
const base = required("CAIRN_URL").replace(/\/$/, "");
const admin = required("CAIRN_ADMIN_TOKEN");
const targets = (env.CAIRN_TARGETS ?? "http,stdio-server").split(",").map((t) => t.trim());
const command = env.CAIRN_COMMAND
  ? JSON.parse(env.CAIRN_COMMAND)
  : [resolve(here, "../../../../cairn")];
const run = Date.now().toString(36);

// The tools the issue asks for; tools/list must offer exactly these.
const TOOLS = [
  "retrieve", "recall", "remember", "propose_memory", "forget", "update_memory",
  "search_transcripts", "ingest_document", "judge_answer", "get_trace", "find_entities",
  "get_entity",
];

// Slow starts: the data-dir server loads the embedding model before it answers initialize.
const START = { timeout: 300_000 };
const CALL = { timeout: 120_000 };

const report = { ok: false, targets: {}, inspector: null };
let current = null;
let stderrTail = "";

function required(name) {
  const value = env[name];
  if (!value) {
    console.error(`harness: ${name} is required`);
    process.exit(2);
  }
  return value;
}

function check(name, condition, detail) {
  const entry = { name, ok: Boolean(condition) };
  if (!condition) entry.detail = detail === undefined ? "" : String(detail).slice(0, 2000);
  current.checks.push(entry);
  if (!condition) console.error(`FAIL [${current.name}] ${name}: ${entry.detail}`);
  return Boolean(condition);
}

// ---- REST set-up (admin token) ------------------------------------------------------------------

async function rest(method, path, body, token = admin) {
  const response = await fetch(base + path, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) {
    throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  }
  return text ? JSON.parse(text) : null;
}

async function namespace(name) {
  await rest("POST", "/v1/namespaces", { name });
  return name;
}

async function token(name, roles, namespaces) {
  return (await rest("POST", "/v1/tokens", { name, roles, namespaces })).token;
}

// ---- MCP connections ----------------------------------------------------------------------------

async function connect(kind, ns, secret) {
  let transport;
  if (kind === "http") {
    transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp/${ns}`), {
      requestInit: { headers: { Authorization: `Bearer ${secret}` } },
    });
  } else {
    const args =
      kind === "stdio-server"
        ? ["mcp", "--namespace", ns, "--server", base, "--token", secret]
        : ["mcp", "--namespace", ns, "--data", required("CAIRN_STDIO_DATA")].concat(
            env.CAIRN_STDIO_DB_URL ? ["--db-url", env.CAIRN_STDIO_DB_URL] : [],
          );
    const childEnv = { ...process.env };
    delete childEnv.CAIRN_DB_URL;
    transport = new StdioClientTransport({
      command: command[0],
      args: [...command.slice(1), ...args],
      env: childEnv,
      stderr: "pipe",
    });
    // Logs belong on stderr: keep the tail, for the report when the child dies.
    transport.stderr?.on("data", (chunk) => {
      stderrTail = (stderrTail + chunk.toString()).slice(-4000);
    });
  }
  const client = new Client({ name: "cairn-harness", version: "1.0.0" });
  await client.connect(transport, START);
  return client;
}

async function call(client, name, args) {
  return client.callTool({ name, arguments: args }, undefined, CALL);
}

function text(result) {
  return (result.content ?? []).map((c) => c.text ?? "").join("\n");
}

// A valid call: not a tool error, with structured content; answers the structured content.
function ok(name, result) {
  check(`${name}: succeeds`, !result.isError, text(result));
  check(`${name}: has structured content`, typeof result.structuredContent === "object", text(result));
  check(`${name}: has a text rendering`, text(result).length > 0, JSON.stringify(result));
  return result.structuredContent ?? {};
}

// An invalid call: a tool error (not a protocol error) whose message names the culprit.
async function rejects(client, name, args, culprit) {
  let result;
  try {
    result = await call(client, name, args);
  } catch (e) {
    check(`${name} ${JSON.stringify(args)}: a tool error, not a protocol error`, false, e.message);
    return;
  }
  check(`${name} ${JSON.stringify(args)}: is a tool error`, result.isError === true, text(result));
  check(
    `${name} ${JSON.stringify(args)}: the error names '${culprit}'`,
    text(result).includes(culprit),
    text(result),
  );
}

// ---- the scripted session -----------------------------------------------------------------------

const RUNBOOK_ID = "kafka-lag-runbook";
const RUNBOOK = `---
id: ${RUNBOOK_ID}
title: Kafka consumer lag runbook
tags: [kafka, oncall]
---
# Kafka consumer lag

When consumer lag on the orders topic grows every night around 02:00, the nightly batch export
is saturating the brokers. Raise fetch.min.bytes on the export consumer to 1 MB and move the
export to the replica cluster. Page the data platform team if lag stays above 50,000 messages
for more than 15 minutes.
`;
const PREFERENCE = "Dana prefers incident summaries posted in the #ops-incidents Slack channel, not by email.";

async function session(client, ns, { restAvailable }) {
  const listed = (await client.listTools()).tools;
  const names = listed.map((t) => t.name);
  check("tools/list: exactly the issue's tools", JSON.stringify([...names].sort()) === JSON.stringify([...TOOLS].sort()), names.join(","));
  for (const tool of listed) {
    check(`tools/list: ${tool.name} has an object input schema`, tool.inputSchema?.type === "object" && typeof tool.inputSchema.properties === "object", JSON.stringify(tool.inputSchema));
    check(`tools/list: ${tool.name} has a description`, (tool.description ?? "").length > 40, tool.description);
  }
  const retrieveTool = listed.find((t) => t.name === "retrieve");
  check("tools/list: retrieve requires query", retrieveTool?.inputSchema?.required?.includes("query"), JSON.stringify(retrieveTool?.inputSchema));
  check("tools/list: retrieve is annotated read-only", retrieveTool?.annotations?.readOnlyHint === true, JSON.stringify(retrieveTool?.annotations));

  // ingest a runbook
  const ingested = ok("ingest_document", await call(client, "ingest_document", { content: RUNBOOK }));
  check("ingest_document: answers the front matter id", ingested.id === RUNBOOK_ID, JSON.stringify(ingested));
  await rejects(client, "ingest_document", { title: "no content" }, "content");

  // retrieve it
  const found = ok("retrieve", await call(client, "retrieve", { query: "why does consumer lag grow every night", topK: 5 }));
  const hits = found.hits ?? [];
  check("retrieve: the runbook is the best hit", hits[0]?.documentId === RUNBOOK_ID, JSON.stringify(hits[0]));
  check("retrieve: the hit carries its text", (hits[0]?.text ?? "").includes("fetch.min.bytes"), JSON.stringify(hits[0]));
  check("retrieve: answers a trace id", typeof found.traceId === "string" && found.traceId.length > 0, JSON.stringify(found));
  await rejects(client, "retrieve", { query: "lag", topK: "many" }, "topK");

  const trace = ok("get_trace", await call(client, "get_trace", { traceId: found.traceId }));
  check("get_trace: the same trace", JSON.stringify(trace).includes(found.traceId), JSON.stringify(trace).slice(0, 300));
  await rejects(client, "get_trace", {}, "traceId");

  // remember a preference
  const remembered = ok("remember", await call(client, "remember", { content: PREFERENCE, type: "PREFERENCE", userId: "dana", tags: ["incidents"] }));
  const memoryId = remembered.id;
  check("remember: answers the stored memory's id", typeof memoryId === "string" && memoryId.length > 0, JSON.stringify(remembered));
  check("remember: the memory is active and typed", remembered.status === "ACTIVE" && remembered.type === "PREFERENCE", JSON.stringify(remembered));
  const again = ok("remember (the same again)", await call(client, "remember", { content: PREFERENCE, type: "PREFERENCE", userId: "dana" }));
  check("remember: a duplicate is merged into the first", again.deduplicatedInto === memoryId && again.id === memoryId, JSON.stringify(again));
  await rejects(client, "remember", { content: "x", confidence: "high" }, "confidence");

  // recall it into context
  const recalled = ok("recall", await call(client, "recall", { query: "how does Dana want incident summaries", userId: "dana" }));
  const recalledIds = (recalled.memories ?? []).map((m) => m.id ?? m.memory?.id);
  check("recall: returns the remembered preference", recalledIds.includes(memoryId), JSON.stringify(recalled).slice(0, 600));
  check("recall: the context block carries it", (recalled.context ?? "").includes("#ops-incidents"), recalled.context);
  await rejects(client, "recall", { query: "x", limit: "all" }, "limit");

  const updated = ok("update_memory", await call(client, "update_memory", { id: memoryId, tags: ["incidents", "slack"] }));
  check("update_memory: the new tags", JSON.stringify(updated.tags) === JSON.stringify(["incidents", "slack"]), JSON.stringify(updated));
  await rejects(client, "update_memory", { id: memoryId, status: "gone" }, "status");

  const proposed = ok("propose_memory", await call(client, "propose_memory", { type: "policy", title: "Incident summaries", content: "Post every incident summary in Slack." }));
  check("propose_memory: a pending proposal", String(proposed.status).toLowerCase() === "pending", JSON.stringify(proposed));
  await rejects(client, "propose_memory", { type: "poem", title: "t", content: "c" }, "type");

  // judge an answer citing the trace
  const judged = ok("judge_answer", await call(client, "judge_answer", {
    query: "why does consumer lag grow every night",
    answer: "The nightly batch export saturates the brokers; raise fetch.min.bytes on the export consumer [1].",
    traceId: found.traceId,
  }));
  check("judge_answer: judges each claim", Array.isArray(judged.claims) && judged.claims.length > 0, JSON.stringify(judged));
  check("judge_answer: the claim citing the trace's first hit is supported by it", (judged.claims ?? []).some((c) => c.supported && c.supportedBy.includes(hits[0]?.chunkId)), JSON.stringify(judged));
  await rejects(client, "judge_answer", { answer: "x", evidence: "not a list" }, "evidence");

  // transcripts: a conversation written through the ARK route when the server is reachable
  if (restAvailable) {
    await rest("POST", `/ark/${ns}/messages`, {
      conversation_id: `conv-${run}`,
      query_id: "q1",
      session_id: `conv-${run}`,
      messages: [{ role: "user", content: "Our Kafka consumer lag spikes at 2am again." }],
    });
  }
  const transcripts = ok("search_transcripts", await call(client, "search_transcripts", { query: "kafka consumer lag spikes" }));
  if (restAvailable) {
    check("search_transcripts: finds the message", (transcripts.items ?? []).some((i) => i.conversationId === `conv-${run}`), JSON.stringify(transcripts));
  }
  await rejects(client, "search_transcripts", { query: "x", limit: "ten" }, "limit");

  const entities = ok("find_entities", await call(client, "find_entities", { query: "" }));
  check("find_entities: a list with a total", Array.isArray(entities.items) && typeof entities.total === "number", JSON.stringify(entities).slice(0, 300));
  await rejects(client, "find_entities", { limit: 0 }, "limit");
  if (entities.items?.length) {
    const entity = ok("get_entity", await call(client, "get_entity", { id: entities.items[0].id }));
    check("get_entity: the entity asked for", entity.id === entities.items[0].id, JSON.stringify(entity).slice(0, 300));
  }
  await rejects(client, "get_entity", { id: "no-such-entity" }, "no-such-entity");
  await rejects(client, "get_entity", {}, "id");

  // a resource and the prompt
  const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
  check("resources/templates/list: memories and documents", templates.includes("cairn://{ns}/memories/{id}") && templates.includes("cairn://{ns}/documents/{id}"), templates.join(","));
  const doc = await client.readResource({ uri: `cairn://${ns}/documents/${RUNBOOK_ID}` });
  check("resources/read: the runbook document", (doc.contents?.[0]?.text ?? "").includes("Kafka consumer lag runbook"), JSON.stringify(doc).slice(0, 300));
  const mem = await client.readResource({ uri: `cairn://${ns}/memories/${memoryId}` });
  check("resources/read: the remembered memory", (mem.contents?.[0]?.text ?? "").includes("#ops-incidents"), JSON.stringify(mem).slice(0, 300));
  const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
  check("prompts/list: grounded_answer", prompts.includes("grounded_answer"), prompts.join(","));
  const prompt = await client.getPrompt({ name: "grounded_answer", arguments: { question: "How does Dana want the summary of the nightly consumer lag incident?", userId: "dana", maxTokens: "2000" } });
  const promptText = prompt.messages?.[0]?.content?.text ?? "";
  check("prompts/get: cites the runbook", promptText.includes(`[${RUNBOOK_ID}]`) && promptText.includes("fetch.min.bytes"), promptText.slice(0, 600));
  check("prompts/get: brings the user's memory", promptText.includes("#ops-incidents"), promptText.slice(0, 1200));

  // forget the memory; recall no longer returns it
  const forgotten = ok("forget", await call(client, "forget", { id: memoryId }));
  check("forget: deleted", forgotten.action === "deleted" && forgotten.id === memoryId, JSON.stringify(forgotten));
  await rejects(client, "forget", { id: memoryId, invalidate: "yes" }, "invalidate");
  const after = ok("recall (after forget)", await call(client, "recall", { query: "how does Dana want incident summaries", userId: "dana" }));
  check("recall: no longer returns the forgotten memory", !JSON.stringify(after).includes(memoryId) && !(after.context ?? "").includes("#ops-incidents"), JSON.stringify(after).slice(0, 600));
}

// A token limited to namespace a gets a tool error on b; a read-only token cannot remember.
async function permissions(kind, a, b) {
  const writerA = await token(`writer-${kind}-${run}`, ["read", "write"], [a]);
  const readerA = await token(`reader-${kind}-${run}`, ["read"], [a]);
  const onB = await connect(kind, b, writerA);
  try {
    const result = await call(onB, "retrieve", { query: "kafka" });
    check("a token of namespace a on b: a tool error", result.isError === true, text(result));
    check("a token of namespace a on b: says so", text(result).includes(`namespace '${b}'`), text(result));
  } finally {
    await onB.close();
  }
  const reader = await connect(kind, a, readerA);
  try {
    const result = await call(reader, "remember", { content: "Readers cannot write." });
    check("a read-only token: remember is a tool error", result.isError === true, text(result));
    check("a read-only token: names the missing role", text(result).includes("lacks role 'write'"), text(result));
    const read = await call(reader, "retrieve", { query: "kafka" });
    check("a read-only token: retrieve works", !read.isError, text(read));
  } finally {
    await reader.close();
  }
}

async function target(kind) {
  current = { name: kind, checks: [] };
  report.targets[kind] = current;
  const started = Date.now();
  try {
    let ns;
    let restAvailable = true;
    if (kind === "stdio-data" && env.CAIRN_STDIO_NAMESPACE) {
      ns = env.CAIRN_STDIO_NAMESPACE;
      restAvailable = false;
    } else {
      ns = await namespace(`h${run}-${kind}-a`);
    }
    // The data-dir server's caller owns the data dir: it needs no token.
    const client = await connect(kind, ns, kind === "stdio-data" ? "" : admin);
    try {
      const info = client.getServerVersion();
      check("initialize: the server is cairn", info?.name === "cairn", JSON.stringify(info));
      check("initialize: offers tools, resources and prompts", Boolean(client.getServerCapabilities()?.tools && client.getServerCapabilities()?.resources && client.getServerCapabilities()?.prompts), JSON.stringify(client.getServerCapabilities()));
      await session(client, ns, { restAvailable });
    } finally {
      await client.close();
    }
    if (kind !== "stdio-data") {
      await permissions(kind, ns, await namespace(`h${run}-${kind}-b`));
    }
  } catch (e) {
    check("the session ran to its end", false, `${e.stack ?? e.message}\nchild stderr:\n${stderrTail}`);
  }
  current.seconds = Math.round((Date.now() - started) / 1000);
}

// ---- MCP Inspector CLI --------------------------------------------------------------------------

async function inspector() {
  current = { name: "inspector", checks: [] };
  report.inspector = current;
  const cli = join(here, "node_modules/@modelcontextprotocol/inspector-cli/build/cli.js");
  const exec = promisify(execFile);
  try {
    const ns = await namespace(`h${run}-inspector`);
    await rest("POST", `/v1/namespaces/${ns}/documents`, { id: "dns", title: "DNS runbook", content: "# DNS\n\nFlush the resolver cache when records are stale." });
    const target = [`${base}/mcp/${ns}`, "--transport", "http", "--header", `Authorization: Bearer ${admin}`];
    const inspect = async (...args) => {
      // cwd: inspector-cli 1.0.3 finds its package.json relative to the working directory.
      const { stdout } = await exec("node", [cli, "--cli", ...target, ...args], { cwd: dirname(cli), timeout: 120_000, maxBuffer: 16 << 20 });
      return JSON.parse(stdout);
    };
    const listed = await inspect("--method", "tools/list");
    const names = (listed.tools ?? []).map((t) => t.name);
    check("inspector tools/list: every tool", TOOLS.every((t) => names.includes(t)), names.join(","));
    const called = await inspect("--method", "tools/call", "--tool-name", "retrieve", "--tool-arg", "query=stale DNS records");
    check("inspector tools/call retrieve: succeeds", !called.isError, JSON.stringify(called).slice(0, 400));
    check("inspector tools/call retrieve: finds the DNS runbook", called.structuredContent?.hits?.[0]?.documentId === "dns", JSON.stringify(called).slice(0, 400));
    const bad = await inspect("--method", "tools/call", "--tool-name", "retrieve", "--tool-arg", "query=x", "topK=many");
    check("inspector tools/call with a bad argument: a tool error naming it", bad.isError === true && text(bad).includes("topK"), JSON.stringify(bad).slice(0, 400));
  } catch (e) {
    check("the inspector ran", false, (e.stderr || "") + (e.stack ?? e.message));
  }
}

for (const kind of targets) {
  if (!["http", "stdio-server", "stdio-data"].includes(kind)) {
    console.error(`harness: unknown target ${kind}`);
    process.exit(2);
  }
  await target(kind);
}
if (env.CAIRN_INSPECTOR !== "0") {
  await inspector();
}
const all = [...Object.values(report.targets), ...(report.inspector ? [report.inspector] : [])];
report.ok = all.every((t) => t.checks.length > 0 && t.checks.every((c) => c.ok));
report.checks = all.reduce((n, t) => n + t.checks.length, 0);
report.failed = all.flatMap((t) => t.checks.filter((c) => !c.ok).map((c) => `[${t.name}] ${c.name}`));
const json = JSON.stringify(report, null, 2);
if (env.CAIRN_REPORT) writeFileSync(env.CAIRN_REPORT, json);
console.log(JSON.stringify({ ok: report.ok, checks: report.checks, failed: report.failed }));
process.exit(report.ok ? 0 : 1);
