// The browser smoke test of the web demo (run by scripts/web-smoke):
// serves DIR on 127.0.0.1, opens it in headless Chromium and drives it
// through the DevTools protocol (Node's WebSocket; no npm packages). Fails
// unless frames advance, the opening entities are drawn, a real mouse click
// on the canvas reaches the game and spawns entities, a key press fires a
// burst, the steady frames make no heap allocation (the demo's counting
// allocator, read through `demoStats()`), wgpu draws (its WebGL2 backend,
// said on the console) with the upload arena creating no staging buffer
// once warm, and the screenshot shows what wgpu drew: the entities as
// quads on the field, and the panel's text in the overlay, in their own
// colours (as scripts/window-smoke checks natively). Saves that screenshot
// to SHOT.
//
//   node --experimental-websocket scripts/web-smoke.mjs DIR SHOT
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { inflateSync } from "node:zlib";

const [dir, shot] = process.argv.slice(2);
if (!dir || !shot) {
  console.error("usage: web-smoke.mjs DIR SHOT");
  process.exit(2);
}
// The demo's own figures (examples/window/screen.rs).
const OPENING = 300;
const CLICK_SPAWN = 24;
const BURST = 500;

function fail(message) {
  console.error(`web-smoke: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}

// The pixels of a PNG as Chromium writes its screenshots (8-bit RGB or
// RGBA, not interlaced): { width, height, rgb(x, y) }, rgb as 0xRRGGBB.
function decodePng(png) {
  let at = 8;
  let width, height, channels;
  const idat = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colourType, interlace] = [data[8], data[9], data[12]];
      channels = { 2: 3, 6: 4 }[colourType];
      if (depth !== 8 || !channels || interlace !== 0) {
        fail(`a screenshot PNG of depth ${depth}, colour type ${colourType}, interlace ${interlace}`);
      }
    } else if (type === "IDAT") {
      idat.push(data);
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length !== height * (stride + 1)) {
    fail(`a screenshot PNG of ${raw.length} bytes of rows, not ${height} x ${stride + 1}`);
  }
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    if (filter > 4) fail(`a screenshot PNG row with filter ${filter}`);
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? pixels[y * stride + i - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const c = i >= channels && y > 0 ? pixels[(y - 1) * stride + i - channels] : 0;
      const predicted = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      pixels[y * stride + i] = (row[i] + predicted) & 0xff;
    }
  }
  const rgb = (x, y) => {
    const i = y * stride + x * channels;
    return (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
  };
  return { width, height, rgb };
}
function paeth(a, b, c) {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// A static server for the built page.
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
const server = createServer(async (request, response) => {
  const path = new URL(request.url, "http://localhost").pathname;
  const file = normalize(path === "/" ? "index.html" : path.slice(1));
  try {
    if (file.startsWith("..")) throw new Error("outside the page's directory");
    const body = await readFile(join(dir, file));
    response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
    response.end(body);
  } catch {
    response.writeHead(404);
    response.end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

// Headless Chromium with the flags this closed network needs (no
// background connections, no sandbox as root), on a fresh profile.
const profile = await mkdtemp(join(tmpdir(), "web-smoke-"));
const chromium = spawn(process.env.CHROMIUM ?? "chromium", [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  `--user-data-dir=${profile}`, "--remote-debugging-port=0", "--window-size=1320,840",
  "about:blank",
], { stdio: ["ignore", "ignore", "pipe"] });
const browserUrl = await new Promise((resolve, reject) => {
  let seen = "";
  chromium.stderr.on("data", (chunk) => {
    seen += chunk;
    const found = seen.match(/DevTools listening on (ws:\/\/\S+)/);
    if (found) resolve(found[1]);
  });
  chromium.on("exit", (code) => reject(new Error(`chromium exited (${code}): ${seen}`)));
});

// A DevTools protocol client: numbered requests, events to listeners.
const socket = new WebSocket(browserUrl);
await new Promise((resolve, reject) => {
  socket.onopen = resolve;
  socket.onerror = reject;
});
let lastId = 0;
const pending = new Map();
const listeners = [];
socket.onmessage = (message) => {
  const data = JSON.parse(message.data);
  if (data.id === undefined) {
    listeners.forEach((listener) => listener(data));
    return;
  }
  const { resolve, reject } = pending.get(data.id);
  pending.delete(data.id);
  if (data.error) reject(new Error(`${JSON.stringify(data.error)}`));
  else resolve(data.result);
};
function send(method, params = {}, sessionId = undefined) {
  const id = ++lastId;
  socket.send(JSON.stringify({ id, method, params, sessionId }));
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

const pageErrors = [];
const consoleLines = [];
let session;
const page = (method, params) => send(method, params, session);
async function evaluate(expression) {
  const { result, exceptionDetails } = await page("Runtime.evaluate", {
    expression,
    returnByValue: true,
  });
  if (exceptionDetails) fail(`${expression}: ${exceptionDetails.text}`);
  return result.value;
}
const stats = () => evaluate("window.demoStats ? window.demoStats() : null");
// Polls `stats()` until `ready` holds, for up to `seconds`: long enough
// for a page on a software renderer beside two builds (a few frames a
// second).
async function waitFor(what, ready, seconds = 90) {
  const until = Date.now() + seconds * 1000;
  let latest = null;
  while (Date.now() < until) {
    latest = await stats();
    if (latest && ready(latest)) return latest;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  fail(`${what}: not within ${seconds} s (last stats: ${JSON.stringify(latest)})`);
}

try {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  ({ sessionId: session } = await send("Target.attachToTarget", { targetId, flatten: true }));
  listeners.push((event) => {
    if (event.sessionId !== session) return;
    if (event.method === "Runtime.consoleAPICalled") {
      const text = event.params.args.map((arg) => arg.value ?? arg.description).join(" ");
      console.log(`page console.${event.params.type}: ${text}`);
      consoleLines.push(text);
      // The demo says what went wrong as console errors (`window: ...`).
      if (event.params.type === "error") pageErrors.push(text);
    } else if (event.method === "Runtime.exceptionThrown") {
      const details = event.params.exceptionDetails;
      const text = details.exception?.description ?? details.text;
      console.log(`page exception: ${text}`);
      pageErrors.push(text);
    }
  });
  await page("Runtime.enable");
  await page("Page.enable");
  await page("Page.navigate", { url });

  const started = await waitFor("the page running frames", (s) => s.frames >= 60);
  console.log(`running: ${JSON.stringify(started)}`);
  if (started.sprites !== OPENING) fail(`${started.sprites} sprites drawn, not the ${OPENING} of the opening`);

  // A real click (mouse moved, pressed, released) on the scene, left of
  // the panel: winit's web backend turns the pointer events into
  // CursorMoved and MouseInput.
  const [left, top, width, height] = await evaluate(
    "(() => { const r = document.querySelector('canvas').getBoundingClientRect();"
      + " return [r.left, r.top, r.width, r.height]; })()",
  );
  const x = left + width * 0.3;
  const y = top + height * 0.5;
  await page("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (const type of ["mousePressed", "mouseReleased"]) {
    await page("Input.dispatchMouseEvent", { type, x, y, button: "left", clickCount: 1 });
  }
  const clicked = await waitFor(
    "the click spawning entities",
    (s) => s.spawn_clicks === 1 && s.sprites === OPENING + CLICK_SPAWN,
  );
  console.log(`after the click: ${JSON.stringify(clicked)}`);

  // A key on the focused canvas: space fires a burst from the player.
  for (const type of ["keyDown", "keyUp"]) {
    await page("Input.dispatchKeyEvent", {
      type, key: " ", code: "Space", windowsVirtualKeyCode: 32, text: type === "keyDown" ? " " : undefined,
    });
  }
  const burst = await waitFor(
    "space firing a burst",
    (s) => s.bursts === 1 && s.sprites === OPENING + CLICK_SPAWN + BURST,
  );
  console.log(`after space: ${JSON.stringify(burst)}`);

  // Steady frames after the click, then the tally.
  const settled = await waitFor(
    "120 more frames",
    (s) => s.frames >= burst.frames + 120,
  );
  console.log(`settled: ${JSON.stringify(settled)}`);
  if (settled.steady_frames < 100) fail(`only ${settled.steady_frames} steady frames`);
  if (settled.steady_frame_allocations !== 0) {
    fail(`${settled.steady_frame_allocations} heap allocations in ${settled.steady_frames} steady frames`);
  }

  // wgpu draws, through the upload arena, and a steady frame creates no
  // staging buffer.
  const renderer = consoleLines.find((line) => line.startsWith("renderer: "));
  if (!renderer?.startsWith("renderer: wgpu (")) fail(`not drawn by wgpu: ${renderer ?? "no renderer said"}`);
  if (!settled.staging || settled.staging.high_water === 0) {
    fail(`nothing went through the upload arena: ${JSON.stringify(settled.staging)}`);
  }
  if (settled.staging.created_after_warm_up !== 0) {
    fail(`${settled.staging.created_after_warm_up} staging buffers created after the warm-up`);
  }

  // What the browser composited (a WebGL canvas has no 2D context to read
  // back), with the canvas unfocused: no focus ring over its edge.
  await evaluate("document.activeElement.blur()");
  await new Promise((resolve) => setTimeout(resolve, 200));
  const [cx, cy, scale] = await evaluate(
    "(() => { const r = document.querySelector('canvas').getBoundingClientRect();"
      + " return [r.left, r.top, window.devicePixelRatio]; })()",
  );
  const { data } = await page("Page.captureScreenshot", { format: "png" });
  const png = Buffer.from(data, "base64");
  await writeFile(shot, png);
  const image = decodePng(png);
  // Pixels of the canvas's region WxH at (X, Y), in the canvas's CSS
  // pixels (examples/window/layout.rs: at 1280x720 the scene is 516
  // square at (8, 8), the panel right of it), whose colour is in `wanted`
  // (all of them if none given); and the colours seen there.
  function region(x, y, w, h, wanted) {
    const seen = new Set();
    let count = 0;
    const [x0, y0] = [Math.ceil((cx + x) * scale), Math.ceil((cy + y) * scale)];
    const [x1, y1] = [Math.floor((cx + x + w) * scale), Math.floor((cy + y + h) * scale)];
    for (let py = Math.max(0, y0); py < Math.min(image.height, y1); py++) {
      for (let px = Math.max(0, x0); px < Math.min(image.width, x1); px++) {
        const rgb = image.rgb(px, py);
        seen.add(rgb);
        if (!wanted || wanted.includes(rgb)) count++;
      }
    }
    return { count, colours: seen.size };
  }
  // The canvas inside its edge: many colours, not a blank.
  const colours = region(4, 4, width - 8, height - 8).colours;
  if (colours <= 8) fail(`the canvas is blank (${colours} colours)`);
  // The entities are discs and squares in four colours (scene.rs's
  // PALETTE), drawn only as quads, on the field (a quad under them); the
  // panel's text is in the overlay texture, whose red and blue the shader
  // swaps back: each in its own colour, not swapped.
  const entities = region(8, 8, 516, 516, [0x2ec4b6, 0xff9f1c, 0xe84a72, 0x8e7dff]).count;
  const field = region(8, 8, 516, 516, [0x141a23]).count;
  const text = region(540, 8, 700, 340, [0x8a96a8, 0xf4f4f6]).count;
  console.log(`screenshot: ${colours} colours; ${entities} pixels of entities, ${field} of the field, ${text} of panel text`);
  if (entities <= 2000) fail(`no entities drawn as quads (${entities} pixels)`);
  if (field <= 100000) fail(`the field is not drawn (${field} pixels)`);
  if (text <= 5000) fail(`the overlay is not drawn (${text} pixels of text)`);
  if (pageErrors.length > 0) fail(`the page reported errors: ${pageErrors.join(" | ")}`);
  console.log(
    `web-smoke: passed: ${settled.frames} frames drawn, ${settled.sprites} sprites, `
      + `${settled.steady_frame_allocations} heap allocations in ${settled.steady_frames} steady frames, `
      + `${colours} colours, ${renderer}; screenshot ${shot}`,
  );
} catch (error) {
  if (!process.exitCode) console.error(`web-smoke: ${error.stack ?? error}`);
  process.exitCode = 1;
} finally {
  // Chromium's helper processes go on writing into the profile for a moment
  // after the browser is told to end: wait for its exit, then let `rm` retry
  // what is still being written (ENOTEMPTY), before giving the directory up.
  const ended = chromium.exitCode !== null || chromium.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => chromium.once("exit", resolve));
  socket.close();
  chromium.kill();
  await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  server.close();
  await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
    .catch((error) => console.error(`web-smoke: left the profile ${profile}: ${error.message}`));
}
