/**
 * Draws the app's PNG icons from their SVGs with the browser the tests use (playwright-core and Debian's chromium),
 * so the PNGs in public/icons are the SVGs, pixel for pixel, at the sizes browsers and home screens ask for. Run
 * after changing an SVG: `npm run icons -w @booth/web`, and commit the PNGs.
 *
 *   public/favicon.svg  -> icons/icon-192.png, icon-512.png          (round, transparent corners: "any")
 *   icons/maskable.svg  -> icons/icon-maskable-192.png, -512.png       (full bleed, mark in the safe zone: "maskable")
 *                          icons/apple-touch-icon.png (180)            (iOS rounds the corners itself)
 *   icons/badge.svg     -> icons/badge-96.png                          (white on transparent: the notification badge)
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const ICONS: { svg: string; png: string; size: number }[] = [
  { svg: "public/favicon.svg", png: "icon-192.png", size: 192 },
  { svg: "public/favicon.svg", png: "icon-512.png", size: 512 },
  { svg: "icons/maskable.svg", png: "icon-maskable-192.png", size: 192 },
  { svg: "icons/maskable.svg", png: "icon-maskable-512.png", size: 512 },
  { svg: "icons/maskable.svg", png: "apple-touch-icon.png", size: 180 },
  { svg: "icons/badge.svg", png: "badge-96.png", size: 96 },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  for (const { svg, png, size } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const source = `data:image/svg+xml;base64,${(await readFile(join(web, svg))).toString("base64")}`;
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}img{display:block;width:${size}px;height:${size}px}</style><img src="${source}">`,
    );
    await page.locator("img").evaluate((img: HTMLImageElement) => img.decode());
    await page.screenshot({ path: join(web, "public", "icons", png), omitBackground: true });
    await page.close();
    console.log(`public/icons/${png} (${size}x${size}) from ${svg}`);
  }
} finally {
  await browser.close();
}
