/**
 * Import first in every web component test: registers happy-dom's browser globals once, swaps
 * WebSocket for an in-memory fake (test/web/support/fake-websocket.ts) and unmounts rendered trees
 * after each test. Never import this from server-side tests: it replaces fetch and friends.
 *
 * Written as CommonJS on purpose: Bun evaluates CommonJS modules (react-dom, Testing Library) while
 * linking, before any ES module body runs, so an ES module here would register the globals too late
 * for them. As CommonJS this file runs in import order, ahead of the packages imported after it.
 */
{
  const { GlobalRegistrator } = require("@happy-dom/global-registrator") as typeof import("@happy-dom/global-registrator");
  const { afterEach } = require("bun:test") as typeof import("bun:test");

  if (!GlobalRegistrator.isRegistered) {
    GlobalRegistrator.register({ url: "http://localhost:3000/", width: 1280, height: 800 });
    const { FakeWebSocket } = require("../web/support/fake-websocket.ts") as typeof import("../web/support/fake-websocket.ts");
    Object.defineProperty(globalThis, "WebSocket", { value: FakeWebSocket, configurable: true, writable: true });
    const { cleanup } = require("@testing-library/react") as typeof import("@testing-library/react");
    afterEach(() => {
      cleanup();
    });
  }
}

// Marks this file as CommonJS for Bun (see above); it exports nothing.
module.exports = {};
