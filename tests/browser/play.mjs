// The browser test of `rulesi serve`: headless Chromium plays a game by clicking
// cells, checks that the move list and the board change, that undo and the computer
// work, that the hands of a game with reserves are shown and change with a drop, and
// saves a screenshot of each game's start page to target/screens/.
//
// Run from anywhere after `cargo build --release`: `node tests/browser/play.mjs`
// (`npm ci` in tests/browser first). RULESI_BIN overrides target/release/rulesi,
// CHROMIUM the browser (/usr/bin/chromium).

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bin = process.env.RULESI_BIN || join(root, "target/release/rulesi");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";
const screens = join(root, "target/screens");
// The game played by clicking.
const played = "stax";
// A game whose fourth turn is a choice without cells (a button): its pie rule.
const chosen = "anchor";
// A game with reserves (pieces in hand, dropped on the board): the page shows them.
const held = join(root, "tests/oracle/drops.game");

let passed = 0;
let failed = 0;
function check(what, ok, detail) {
  if (ok) {
    passed += 1;
    console.log(`ok - ${what}`);
  } else {
    failed += 1;
    console.log(`not ok - ${what}${detail === undefined ? "" : `: ${detail}`}`);
  }
}

// Starts `rulesi serve GAME --port 0` (a game of games/ by name, or a path); resolves
// to the process and its address (the first line it prints).
function serve(game) {
  const file = game.endsWith(".game") ? game : join(root, "games", `${game}.game`);
  const child = spawn(bin, ["serve", file, "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`rulesi serve ${game} printed no address`)), 30000);
    child.on("error", fail);
    child.on("exit", (code) => fail(new Error(`rulesi serve ${game} ended with status ${code}`)));
    createInterface({ input: child.stdout }).once("line", (line) => {
      clearTimeout(timer);
      ok({ child, address: line.trim() });
    });
  });
}

function stop(child) {
  return new Promise((ok) => {
    if (child.exitCode !== null) return ok();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.removeAllListeners("exit");
    child.once("exit", () => {
      clearTimeout(timer);
      ok();
    });
    child.kill("SIGTERM");
  });
}

const moveCount = (page) => page.locator("#moves li").count();

// Plays one turn by clicking: a cell where a turn starts, then the cells it goes
// to (or the buttons of the turns to choose from) until a move is added.
async function clickTurn(page) {
  const before = await moveCount(page);
  await page.locator("#board .cell.start").first().click();
  for (let step = 0; step < 20; step += 1) {
    // Either the turn was played, or it waits for its next cell or choice.
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll("#moves li").length !== n ||
        (!document.querySelector("#board.busy") && document.querySelector("#board .cell.selected")),
      before,
      { timeout: 10000 },
    );
    if ((await moveCount(page)) !== before) return;
    const target = page.locator("#board .cell.target");
    if ((await target.count()) > 0) {
      await target.first().click();
    } else {
      await page.locator("#choices button").first().click();
    }
  }
  throw new Error("a turn was not played after 20 clicks");
}

async function main() {
  mkdirSync(screens, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), "rulesi-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browserPath,
    headless: true,
    viewport: { width: 1200, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const games = readdirSync(join(root, "games"))
    .filter((f) => f.endsWith(".game"))
    .map((f) => f.replace(/\.game$/, ""))
    .sort();
  try {
    for (const game of games) {
      const { child, address } = await serve(game);
      const page = await context.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(e.message));
      try {
        await page.goto(address);
        await page.waitForSelector("#board svg [data-cell]", { timeout: 20000 });
        await page.waitForFunction(() => document.querySelector("#board .cell.start"), null, { timeout: 20000 });
        const title = await page.textContent("#title");
        check(`${game}: the page shows the game's title (${title})`, title && title !== "rulesi");
        await page.screenshot({ path: join(screens, `${game}.png`), fullPage: true });
        if (game === played) await play(page, game);
        if (game === chosen) await choose(page, game);
        check(`${game}: no error in the page's script`, errors.length === 0, errors.join("; "));
        check(`${game}: no hands shown in a game without reserves`, await page.locator("#hands").isHidden());
      } catch (e) {
        check(`${game}: the page works`, false, e.message);
      } finally {
        await page.close();
        await stop(child);
      }
    }
    await hands(context);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
}

// Plays a few turns of `game` by clicking, undoes one, lets the computer play one.
async function play(page, game) {
  const boardAtStart = await page.innerHTML("#board");
  for (let i = 0; i < 4; i += 1) await clickTurn(page);
  check(`${game}: four turns played by clicking`, (await moveCount(page)) === 4, await moveCount(page));
  const moves = await page.locator("#moves li").allTextContents();
  check(`${game}: the move list is in notation`, moves.every((m) => /^[a-z0-9]+([-x,][a-z0-9]+)*$/i.test(m)), moves.join(" "));
  check(`${game}: the board changed`, (await page.innerHTML("#board")) !== boardAtStart);
  await page.screenshot({ path: join(screens, `${game}-played.png`), fullPage: true });

  // A click where no turn starts is refused with a reason.
  const empty = await page.evaluate(() => {
    const starts = new Set(state.pos.legal.map((t) => t.cells[0]));
    const cell = [...document.querySelectorAll("#board .cell")].find((c) => !starts.has(c.dataset.cell));
    return cell ? cell.dataset.cell : null;
  });
  if (empty) {
    await page.locator(`#board .cell[data-cell="${empty}"]`).click();
    const said = await page.textContent("#message");
    check(`${game}: a click where no turn starts is refused`, said.includes(empty), said);
  }

  await page.click("#undo");
  await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 3, null, { timeout: 10000 });
  check(`${game}: undo takes back a turn`, (await moveCount(page)) === 3);

  await page.fill("#think", "200");
  await page.click("#computer");
  await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 4, null, { timeout: 20000 });
  check(`${game}: the computer plays a turn`, (await moveCount(page)) === 4);
}

// Plays three placements by clicking, then a turn offered as a button.
async function choose(page, game) {
  for (let i = 0; i < 3; i += 1) await clickTurn(page);
  const buttons = await page.locator("#choices button").allTextContents();
  check(`${game}: the choices are offered as buttons`, buttons.some((b) => b.startsWith("choose ")), buttons.join(", "));
  const choice = buttons.find((b) => b.startsWith("choose "));
  if (!choice) return;
  await page.locator("#choices button", { hasText: choice }).first().click();
  await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 4, null, { timeout: 10000 });
  const last = await page.locator("#moves li").last().textContent();
  check(`${game}: a button plays its turn`, last === choice, last);
  await page.screenshot({ path: join(screens, `${game}-chosen.png`), fullPage: true });
}

// The hands of a game with reserves: shown beside the board from the position's
// `reserves`, both kinds offered as buttons where a click on a cell could drop
// either, and one piece fewer in the mover's hand after a drop.
async function hands(context) {
  const game = "drops";
  const { child, address } = await serve(held);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  try {
    await page.goto(address);
    await page.waitForSelector("#board svg [data-cell]", { timeout: 20000 });
    await page.waitForFunction(() => document.querySelector("#board .cell.start"), null, { timeout: 20000 });
    const shown = async () => (await page.textContent("#hands")).replace(/\s+/g, " ").trim();
    const start = await shown();
    check(
      `${game}: the hands are shown beside the board`,
      start === "in hand: white 2 soldier, 1 guard · black 2 soldier, 1 guard",
      start,
    );
    const panel = await page.locator("#board svg .hand").count();
    check(`${game}: the picture draws each side's hand`, panel === 2, panel);
    await page.screenshot({ path: join(screens, `${game}.png`), fullPage: true });
    await page.locator('#board .cell[data-cell="b2"]').click();
    const buttons = await page.locator("#choices button").allTextContents();
    check(`${game}: a drop of either kind is offered`, buttons.join(" ") === "S*b2 G*b2", buttons.join(", "));
    await page.locator("#choices button", { hasText: "S*b2" }).click();
    await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 1, null, { timeout: 10000 });
    const after = await shown();
    check(
      `${game}: a drop takes a piece from the hand`,
      after === "in hand: white 1 soldier, 1 guard · black 2 soldier, 1 guard",
      after,
    );
    const reserves = await page.evaluate(() => state.pos.reserves);
    check(
      `${game}: the position's reserves are the API's`,
      reserves.length === 2 && reserves[0].side === "white" && reserves[0].pieces[0].count === 1,
      JSON.stringify(reserves),
    );
    await page.screenshot({ path: join(screens, `${game}-dropped.png`), fullPage: true });
    check(`${game}: no error in the page's script`, errors.length === 0, errors.join("; "));
  } catch (e) {
    check(`${game}: the page works`, false, e.message);
  } finally {
    await page.close();
    await stop(child);
  }
}

main().catch((e) => {
  console.log(`not ok - ${e.message}`);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exitCode = 1;
});
