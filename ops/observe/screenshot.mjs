// Takes a screenshot of a page of the local Prometheus (ops/up --observe) with Debian's Chromium,
// for docs/images. Usage (playwright-core from npm, installed anywhere on NODE_PATH):
//   node ops/observe/screenshot.mjs 'http://127.0.0.1:9090/graph?g0.expr=…' docs/images/out.png
import { chromium } from "playwright-core";

const [url, output] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
await page.goto(url, { waitUntil: "networkidle" });
await page.waitForTimeout(2000);  // the graph draws after its query answers
await page.screenshot({ path: output, fullPage: false });
await browser.close();
console.log(`saved ${output}`);
