// Drives Firefox ESR for the cross-browser smoke tests (tests/crossbrowser/engines.py).
// Playwright cannot drive Debian's Firefox; puppeteer-core speaks WebDriver BiDi to it.
// One JSON command a line on stdin, one JSON reply a line on stdout:
//   {op: "goto", url} | {op: "reload"} | {op: "run", js, arg} | {op: "errors"} | {op: "quit"}
// "run" calls the async function whose source is `js` with `arg` in the page.
import readline from "node:readline";
import puppeteer from "puppeteer-core";

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath: process.env.FIREFOX_BIN || "/usr/bin/firefox-esr",
  headless: true,
  protocolTimeout: 900_000,
});
const page = await browser.newPage();
await page.setViewport({ width: 1280, height: 900 });
const errors = [];
page.on("pageerror", (err) => errors.push(String((err && err.message) || err)));
// a page or a browser that dies is said on stderr (the harness's log) and in every reply
let died = "";
page.on("error", (err) => { died = `the page crashed: ${err}`; process.stderr.write(`${died}\n`); });
page.on("close", () => { died ||= "the page was closed"; process.stderr.write("page closed\n"); });
browser.on("disconnected", () => { died ||= "the browser disconnected"; process.stderr.write("browser disconnected\n"); });

const reply = (message) => process.stdout.write(JSON.stringify(message) + "\n");
for await (const line of readline.createInterface({ input: process.stdin })) {
  const cmd = JSON.parse(line);
  try {
    if (cmd.op === "goto") {
      await page.goto(cmd.url, { waitUntil: "load", timeout: 300_000 });
      reply({ ok: true });
    } else if (cmd.op === "reload") {
      await page.reload({ waitUntil: "load", timeout: 300_000 });
      reply({ ok: true });
    } else if (cmd.op === "run") {
      reply({ ok: true, value: await page.evaluate(`(${cmd.js})(${JSON.stringify(cmd.arg ?? null)})`) });
    } else if (cmd.op === "errors") {
      reply({ ok: true, value: errors.splice(0) });
    } else if (cmd.op === "quit") {
      await browser.close();
      reply({ ok: true });
      process.exit(0);
    } else {
      reply({ ok: false, error: `unknown command ${cmd.op}` });
    }
  } catch (err) {
    reply({ ok: false, error: (died ? `${died}; ` : "") + String((err && err.stack) || err) });
  }
}
