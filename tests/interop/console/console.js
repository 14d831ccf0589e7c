// The operator console end to end in Debian's chromium, driven by
// playwright-core (never a downloaded browser):
//   node console.js BASE_URL MESSAGE_ID SHOTS_DIR
// An operator logs in, searches the message the test sent, opens it, sees
// its MDN and its 997, resends the 997, finds it in the audit, and logs out;
// a viewer sees no action and is refused when it forges one; a request with
// a wrong CSRF token is refused; the pages fit a phone. Prints one line per
// check; exits 1 on the first failure, with a screenshot in SHOTS_DIR.
'use strict';
const { chromium } = require('playwright-core');
const path = require('path');

const [base, messageId, shots] = process.argv.slice(2);
const PASSWORD = { alice: 'alice-secret-1', bob: 'bob-secret-22' };

let page;
async function check(what, condition) {
  if (!condition) {
    const file = path.join(shots, 'failure-' + what.replace(/[^a-z0-9]+/gi, '-') + '.png');
    if (page) await page.screenshot({ path: file, fullPage: true }).catch(() => {});
    console.log('FAIL: ' + what + ' (screenshot ' + file + ')');
    process.exit(1);
  }
  console.log('ok: ' + what);
}

async function logIn(name) {
  await page.goto(base + '/');
  await check(name + ': redirected to the login page', page.url().endsWith('/login'));
  await page.fill('input[name=name]', name);
  await page.fill('input[name=password]', PASSWORD[name]);
  await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  await check(name + ': dashboard after login', (await page.textContent('h1')) === 'Dashboard');
}

async function logOut() {
  await Promise.all([page.waitForNavigation(), page.click('form[action="/logout"] button')]);
  await check('logged out: back on the login page', page.url().endsWith('/login'));
  await page.goto(base + '/messages');
  await check('after logout the pages need a login again', page.url().endsWith('/login'));
}

// POSTs a form with the browser's cookies (the pages' CSP forbids fetch()
// from the page itself): its status and text.
async function postForm(action, fields) {
  const r = await page.request.post(base + action, { form: fields, maxRedirects: 0 });
  return { status: r.status(), text: await r.text() };
}

(async () => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  // The test's console certificate is self-signed.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ignoreHTTPSErrors: true });
  page = await context.newPage();
  try {
    // A wrong password first: an error on the login page, no session.
    await page.goto(base + '/login');
    await page.fill('input[name=name]', 'alice');
    await page.fill('input[name=password]', 'not-her-password');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    await check('a wrong password is refused on the page', (await page.textContent('.error-box')).includes('wrong name or password'));

    await logIn('alice');
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'edihub_session');
    await check('the session cookie is HttpOnly, SameSite=Strict and Secure',
      session && session.httpOnly && session.sameSite === 'Strict' && session.secure);

    // Search the message the test sent, open it.
    await page.click('nav >> text=Messages');
    await page.fill('input[name=q]', messageId);
    await Promise.all([page.waitForNavigation(), page.click('form[role=search] button')]);
    const rows = await page.locator('tbody tr').count();
    await check('the search finds the AS2 message and its interchange (2 rows)', rows === 2);
    await Promise.all([page.waitForNavigation(), page.click('tbody tr:has(td:text-is("as2")) a')]);
    const text = await page.textContent('main');
    await check('the message page shows the MDN as sent', text.includes('Disposition: automatic-action/MDN-sent-automatically; processed'));
    // Disposition and MIC above the raw MDN, visible without scrolling its box.
    const summary = page.locator('dl.mdn-summary').first();
    await check('the MDN\'s Disposition and MIC shown above it',
      (await summary.isVisible()) && /Dispositionautomatic-action\/MDN-sent-automatically; processed/.test(await summary.textContent()) &&
      /Received-Content-MIC[A-Za-z0-9+\/=]+, sha-256/.test(await summary.textContent()));
    await check('the message page shows the stored 997', /ISA\*.*\*997\*|ST\*997\*/.test(text));
    await check('the message page lists the documents booked', text.includes('INV-88301'));
    await check('the message page lists the 997 sent because of it', (await page.locator('button:has-text("Resend")').count()) >= 1);
    await page.screenshot({ path: path.join(shots, 'console-message.png'), fullPage: true });

    // Resend the 997: a notice from the audit row, and the audit page has it.
    await Promise.all([page.waitForNavigation(), page.locator('button:has-text("Resend")').first().click()]);
    const notice = await page.textContent('.notice');
    await check('resend: the notice says it was queued again (' + notice.trim() + ')', /resend outbox \d+: queued again as/.test(notice));
    await page.click('nav >> text=Audit');
    await check('resend: in the audit, by alice', (await page.textContent('tbody')).includes('resend'));

    // A forged request (no or a wrong CSRF token) is refused.
    const forged = await postForm('/actions/resend', { id: '1', csrf: 'f'.repeat(32) });
    await check('a wrong CSRF token is refused with 403', forged.status === 403 && forged.text.includes('CSRF token is missing or wrong'));
    const bare = await postForm('/actions/resend', { id: '1' });
    await check('a missing CSRF token is refused with 403', bare.status === 403);

    // The dashboard draws its charts.
    await page.click('nav >> text=Dashboard');
    await check('the dashboard draws the hourly chart', (await page.locator('svg.chart rect').count()) > 0);

    // A phone: no page wider than the screen (tables scroll inside their box).
    await page.setViewportSize({ width: 390, height: 844 });
    for (const p of ['/', '/messages', '/outbox', '/partners', '/keys', '/audit']) {
      await page.goto(base + p);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      await check('on a 390 px phone ' + p + ' fits (' + wide + ' px)', wide <= 392);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await logOut();

    // A viewer: sees the message, no buttons; a forged action is refused.
    await logIn('bob');
    await page.goto(base + '/messages?q=' + encodeURIComponent(messageId));
    await Promise.all([page.waitForNavigation(), page.click('tbody tr:has(td:text-is("as2")) a')]);
    await check('viewer: the message page shows no action', (await page.locator('main button').count()) === 0);
    const csrf = await page.getAttribute('form[action="/logout"] input[name=csrf]', 'value');
    const tried = await postForm('/actions/resend', { id: '1', csrf });
    await check('viewer: a forged resend is refused with 403', tried.status === 403 && tried.text.includes('viewer'));
    const capture = await page.request.get(base + '/captures/1');
    await check('viewer: a capture download is refused with 403', capture.status() === 403);
    await logOut();
  } catch (e) {
    await check('no exception: ' + e.message, false);
  }
  await browser.close();
})();
