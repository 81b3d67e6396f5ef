// The console's scripted browser session (docs/console.md): headless Debian chromium driven by
// playwright-core against a real Cairn server. Run by ConsoleBrowserTest, which starts the server
// and passes: CAIRN_URL, CAIRN_NS, CAIRN_ADMIN_TOKEN, CAIRN_READ_TOKEN, CAIRN_ARTIFACTS (where
// screenshots and report.json go). Exit code 0 only when every step passed.
import { chromium } from 'playwright-core';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};
const base = env('CAIRN_URL');
const ns = env('CAIRN_NS');
const artifacts = env('CAIRN_ARTIFACTS');
mkdirSync(artifacts, { recursive: true });
const runbook = readFileSync(new URL('fixtures/runbook.md', import.meta.url), 'utf8');

const report = { steps: [], ok: false };
const browser = await chromium.launch({
  executablePath: process.env.CAIRN_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
const page = await context.newPage();
const requests = [];
page.on('request', (r) => requests.push({ url: r.url(), auth: r.headers()['authorization'] || null }));
page.on('pageerror', (e) => report.steps.push({ name: 'page error', ok: false, detail: String(e) }));
page.setDefaultTimeout(15000);

function check(cond, message) {
  if (!cond) throw new Error(message);
}

async function step(name, fn) {
  const started = Date.now();
  try {
    const detail = await fn();
    report.steps.push({ name, ok: true, ms: Date.now() - started, ...(detail ? { detail } : {}) });
  } catch (e) {
    report.steps.push({ name, ok: false, ms: Date.now() - started, detail: String(e?.message || e) });
    await page.screenshot({ path: join(artifacts, `FAILED-${name.replace(/\W+/g, '-')}.png`), fullPage: true }).catch(() => {});
    throw e;
  }
}
const shot = (name) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });

async function signIn(token) {
  await page.goto(`${base}/console/`);
  await page.fill('#token', token);
  await page.click('button[type=submit]');
}

try {
  await step('the page loads without a token and asks for one', async () => {
    const res = await page.goto(`${base}/console`);
    check(res.status() === 200, `GET /console answered ${res.status()}`);
    await page.waitForSelector('#token');
    await shot('01-sign-in');
  });

  await step('a wrong token is refused', async () => {
    await signIn('not-a-cairn-token');
    await page.waitForSelector('.error');
    const text = await page.textContent('.error');
    check(/401/.test(text), `expected a 401 message, got: ${text}`);
    check((await page.$('nav')) === null, 'navigation shown for a refused token');
    await shot('02-wrong-token');
  });

  await step('sign in as admin; the namespace is listed', async () => {
    await signIn(env('CAIRN_ADMIN_TOKEN'));
    await page.waitForSelector('nav');
    await page.waitForFunction(() => document.querySelectorAll('#namespace option').length > 0);
    const options = await page.$$eval('#namespace option', (os) => os.map((o) => o.value));
    check(options.includes(ns), `namespace ${ns} not among ${options}`);
    await page.selectOption('#namespace', ns);
    await page.waitForFunction((n) => location.hash.startsWith(`#/${n}/`), ns);
    const stored = await page.evaluate(() => sessionStorage.getItem('cairn.token'));
    check(stored === env('CAIRN_ADMIN_TOKEN'), 'token not in session storage');
    check(!page.url().includes(env('CAIRN_ADMIN_TOKEN')), 'token in the URL');
  });

  await step('ingest a runbook by pasting it', async () => {
    await page.click('#open-ingest');
    await page.fill('#ingest-content', runbook);
    await page.click('#ingest button[type=submit]');
    await page.waitForSelector('#ingest-result');
    const text = await page.textContent('#ingest-result');
    check(/billing-cert-rotation/.test(text) && /3 chunks|\d+ chunks/.test(text), `ingest said: ${text}`);
    await page.waitForSelector('#documents >> text=Rotate the billing API certificate');
    await shot('03-knowledge');
    return text.trim();
  });

  await step('open the document: front matter and chunks', async () => {
    await page.click('#documents >> text=Rotate the billing API certificate');
    await page.waitForSelector('#document');
    const facts = await page.textContent('#document dl.facts');
    check(facts.includes('billing, tls') && facts.includes('authoritative'), `front matter fields: ${facts}`);
    await page.waitForSelector('#document-graph');
    const graph = await page.textContent('#document-graph');
    check(graph.includes('billing-api') && graph.includes('governs') && graph.includes('depends_on'),
      `document graph: ${graph}`);
    const chunks = await page.$$('.chunk');
    check(chunks.length >= 2, `only ${chunks.length} chunks shown`);
    await shot('04-document');
    return `${chunks.length} chunks`;
  });

  let traceId;
  await step('retrieve, then open the stored trace', async () => {
    await page.click('nav a[data-page=retrieve]');
    await page.fill('#retrieve-query', 'how do I issue a new certificate for billing-api?');
    await page.click('#retrieve-form button[type=submit]');
    await page.waitForSelector('#hits tbody tr');
    const first = await page.textContent('#hits tbody tr');
    check(first.includes('billing-cert-rotation#'), `first hit: ${first}`);
    check(first.includes('Steps'), `first hit is not the Steps chunk: ${first}`);
    traceId = (await page.textContent('#open-trace')).trim();
    await page.click('#open-trace');
    await page.waitForSelector('#trace tbody tr');
    const rows = await page.$$('#trace tbody tr');
    check(rows.length >= 1, 'empty trace');
    await shot('05-retrieve-trace');
    return `trace ${traceId}, ${rows.length} candidates`;
  });

  await step('judge an answer against the trace', async () => {
    await page.fill('#judge-answer', 'Run certctl issue billing-api --days 90, store the certificate in the vault under tls/billing-api, then restart billing-api one pod at a time [1].');
    await page.click('#judge button[type=submit]');
    await page.waitForSelector('#verdict');
    const verdict = await page.textContent('#verdict');
    // Coverage is what the answer controls; "grounded" also needs the policy, whose
    // defer-when-planned rule follows the retrieve's plan (which a loaded machine can change).
    check((await page.textContent('#coverage')) === '1.000', `verdict: ${verdict}`);
    check(verdict.includes('supported') && !verdict.includes('unsupported'), `verdict: ${verdict}`);
    const grounded = !verdict.includes('not grounded');
    check(grounded || (await page.$('#violations')) !== null, `not grounded and no violation shown: ${verdict}`);
    await shot('06-judge');
    return verdict.slice(0, 160);
  });

  await step('thumbs-up on a retrieve hit is recorded and listed', async () => {
    const hit = page.locator('#hits tbody tr').first();
    const chunk = (await hit.locator('code').first().textContent()).trim();
    await hit.locator('button.thumb-up').click();
    await hit.locator('.recorded').waitFor();
    // the list of judgments is GET feedback, reloaded after the thumb
    const row = page.locator('#judgments tbody tr', { hasText: chunk }).first();
    await row.waitFor();
    const text = await row.textContent();
    check(text.includes('how do I issue a new certificate') && text.includes('operator'), `judgment row: ${text}`);
    await page.click('#train');
    await page.waitForSelector('#adaptation .error');
    const why = await page.textContent('#adaptation .error');
    check(why.startsWith('409'), `training on one judged query: ${why}`);
    await page.locator('#adaptation').scrollIntoViewIfNeeded();
    await shot('06-feedback');
    return `${chunk}; train: ${why.slice(0, 120)}`;
  });

  await step('entity map: click an entity, expand its neighbourhood', async () => {
    await page.click('nav a[data-page=entities]');
    await page.waitForFunction(() => document.getElementById('entity-map')?._cy?.nodes().length > 0);
    const target = await page.evaluate(() => {
      const cy = document.getElementById('entity-map')._cy;
      const node = cy.nodes().filter((n) => n.data('label') === 'billing-api')[0] || cy.nodes('[kind != "document"]')[0];
      const p = node.renderedPosition();
      const box = document.getElementById('entity-map').getBoundingClientRect();
      return { x: box.x + p.x, y: box.y + p.y, label: node.data('label') };
    });
    await page.mouse.click(target.x, target.y);
    await page.waitForSelector('#entity-name');
    const name = await page.textContent('#entity-name');
    check(name === target.label, `clicked ${target.label}, panel shows ${name}`);
    const relations = await page.$$('.relations li');
    check(relations.length >= 1, 'no relations shown for the entity');
    await page.click('#expand');
    await shot('07-entity-map');
    return `${name}: ${relations.length} relations; ${await page.textContent('#entity-counts')}`;
  });

  await step('write a memory, then invalidate it', async () => {
    await page.click('nav a[data-page=memory]');
    await page.click('#open-remember');
    await page.selectOption('#remember-type', 'PREFERENCE');
    await page.fill('#remember-content', 'Dana wants billing-api restarts only between 09:00 and 16:00 UTC on weekdays');
    await page.click('#remember button[type=submit]');
    await page.waitForSelector('#memory');
    check((await page.textContent('#memory h2')).includes('ACTIVE'), 'new memory is not ACTIVE');
    await page.fill('#memory-reason', 'restart window moved');
    await page.click('#invalidate');
    await page.waitForSelector('#memory h2 >> text=INVALIDATED');
    const history = await page.textContent('#transitions');
    check(history.includes('INVALIDATED') && history.includes('restart window moved'), `history: ${history}`);
    await shot('08-memory');
  });

  await step('recall shows the assembled context and the token budget', async () => {
    await page.click('nav a[data-page=memory]');
    await page.fill('#recall-query', 'when may I restart billing-api?');
    await page.click('#recall button[type=submit]');
    await page.waitForSelector('#recall-answer');
    const text = await page.textContent('#recall-answer');
    check(/of 3500 tokens/.test(text), `no budget shown: ${text.slice(0, 200)}`);
    check(/of it, boosts/.test(text), `no boosts column: ${text.slice(0, 200)}`);
    await shot('09-recall');
  });

  await step('review and apply a proposal', async () => {
    await page.click('nav a[data-page=proposals]');
    const card = page.locator('article.proposal').first();
    await card.waitFor();
    check((await card.textContent()).includes('Applying creates'), 'the memory it would create is not shown');
    await card.locator('input.note').fill('checked with the billing team');
    await card.locator('button.accept').click();
    await page.waitForSelector('text=No pending proposals.');
    await page.click('#proposal-status >> text=accepted');
    await page.locator('article.proposal button.apply').first().click();
    await page.waitForSelector('text=No accepted proposals.');
    await page.click('#proposal-status >> text=applied');
    const applied = page.locator('article.proposal').first();
    await applied.waitFor();
    const text = await applied.textContent();
    check(text.includes('applied as') && text.includes('checked with the billing team'), `applied card: ${text}`);
    await shot('10-proposals');
  });

  await step('conversations, key/value and health render', async () => {
    await page.click('nav a[data-page=conversations]');
    await page.waitForSelector('#conversations');
    await shot('11-conversations');
    await page.click('nav a[data-page=health]');
    await page.waitForSelector('#index-status tbody tr');
    await page.waitForSelector('#operation-totals >> text=retrieve');
    await page.waitForTimeout(6500); // three samples drawn
    await shot('12-health');
  });

  await step('tokens: make one, see its secret once, revoke it', async () => {
    await page.click('nav a[data-page=tokens]');
    await page.waitForSelector('#tokens tbody tr');
    await page.fill('#token-name', 'deploy-bot');
    await page.check('#create-token input[value=write]');
    await page.fill('#token-namespaces', ns);
    await page.click('#create-token button[type=submit]');
    const secret = (await page.textContent('#new-secret')).trim();
    check(secret.length >= 32, `secret shown: ${secret}`);
    const row = page.locator('#tokens tr[data-token=deploy-bot]');
    await row.waitFor();
    const listed = await row.textContent();
    check(listed.includes('read') && listed.includes('write') && listed.includes(ns) && !listed.includes(secret),
      `listed as: ${listed}`);
    const me = await (await fetch(`${base}/v1/token`, { headers: { Authorization: `Bearer ${secret}` } })).json();
    check(me.name === 'deploy-bot', `the new secret signs in as ${JSON.stringify(me)}`);
    await shot('14-tokens');
    await row.locator('button.revoke').click();
    await row.locator('button.confirm-revoke').click();
    await row.waitFor({ state: 'detached' });
    const after = await fetch(`${base}/v1/token`, { headers: { Authorization: `Bearer ${secret}` } });
    check(after.status === 401, `a revoked token answered ${after.status}`);
    return `made and revoked deploy-bot`;
  });

  await step('every API call carried the bearer token and none put it in the URL', async () => {
    const api = requests.filter((r) => /\/(v1|ark|orloj)\//.test(r.url));
    check(api.length > 10, `only ${api.length} API calls seen`);
    const bare = api.filter((r) => !r.auth?.startsWith('Bearer '));
    check(bare.length === 0, `calls without a token: ${bare.map((r) => r.url).join(', ')}`);
    check(!requests.some((r) => r.url.includes(env('CAIRN_ADMIN_TOKEN'))), 'a URL carried the token');
    return `${api.length} API calls`;
  });

  await step('a read-only token sees no write buttons', async () => {
    await page.click('header button.link');
    await signIn(env('CAIRN_READ_TOKEN'));
    await page.waitForFunction(() => document.querySelectorAll('#namespace option').length > 0);
    await page.selectOption('#namespace', ns);
    await page.click('nav a[data-page=knowledge]');
    await page.waitForSelector('#documents');
    check((await page.$('#open-ingest')) === null, 'ingest offered to a read-only token');
    await page.click('nav a[data-page=memory]');
    await page.waitForSelector('#memories');
    check((await page.$('#open-remember')) === null, 'memory writing offered to a read-only token');
    await page.click('#memories tbody tr a');
    await page.waitForSelector('#memory');
    check((await page.$('#memory-actions')) === null, 'memory actions offered to a read-only token');
    await page.click('nav a[data-page=proposals]');
    await page.click('#proposal-status >> text=all');
    await page.locator('article.proposal').first().waitFor();
    const buttons = await page.$$('article.proposal button');
    check(buttons.length === 0, `${buttons.length} proposal buttons offered to a read-only token`);
    check((await page.$('nav a[data-page=tokens]')) === null, 'the tokens page offered to a read-only token');
    await page.click('nav a[data-page=retrieve]');
    await page.fill('#retrieve-query', 'billing-api certificate');
    await page.click('#retrieve-form button[type=submit]');
    await page.waitForSelector('#hits tbody tr');
    check((await page.$('.thumbs')) === null, 'thumbs offered to a read-only token');
    check((await page.$('#adaptation')) === null, 'adaptation offered to a read-only token');
    await page.waitForSelector('#judgments tbody tr'); // reading judgments is allowed
    await shot('13-read-only');
  });

  report.ok = report.steps.every((s) => s.ok);
} catch (e) {
  report.error = String(e?.message || e);
} finally {
  writeFileSync(join(artifacts, 'report.json'), JSON.stringify(report, null, 2));
  await browser.close();
}
console.log(JSON.stringify(report));
process.exit(report.ok ? 0 : 1);
