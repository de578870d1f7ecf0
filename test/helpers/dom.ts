/**
 * The browser globals for web component tests: registers happy-dom once, swaps WebSocket for an
 * in-memory fake (test/web/support/fake-websocket.ts) and unmounts rendered trees after each test.
 * Never load this in server-side tests: it replaces fetch and friends.
 *
 * Load it as a preload (`bun test --preload ./test/helpers/dom.ts test/web`) and also import it
 * first in every test/web file. Bun evaluates CommonJS packages (react-dom, Testing Library) while
 * linking a test file, before the file's own imports run, and in no fixed order among themselves;
 * react-dom and Testing Library read `window`/`document` when they load, so only a preload
 * registers the globals early enough every time. Written as CommonJS for the same reason; it is
 * idempotent, so the preload and the import do not clash.
 */
{
  const { GlobalRegistrator } = require("@happy-dom/global-registrator") as typeof import("@happy-dom/global-registrator");
  const { afterEach } = require("bun:test") as typeof import("bun:test");

  if (!GlobalRegistrator.isRegistered) {
    GlobalRegistrator.register({ url: "http://localhost:3000/", width: 1280, height: 800 });
    const { FakeWebSocket } = require("../web/support/fake-websocket.ts") as typeof import("../web/support/fake-websocket.ts");
    Object.defineProperty(globalThis, "WebSocket", { value: FakeWebSocket, configurable: true, writable: true });
    // The member area's chunk installs the full text catalogue; components rendered on their own need it now.
    const { installDefaultTexts } = require("../../web/lib/text.ts") as typeof import("../../web/lib/text.ts");
    const { DEFAULT_UI_TEXT } = require("../../src/domain/ui-text/index.ts") as typeof import("../../src/domain/ui-text/index.ts");
    installDefaultTexts(DEFAULT_UI_TEXT);
    // The member area's chunk provides the live data's schemas; tests of the store need them too.
    const { provideLiveDataSchemas } = require("../../web/lib/live-data-store.ts") as typeof import("../../web/lib/live-data-store.ts");
    provideLiveDataSchemas(require("../../web/lib/live-data-schemas.ts") as typeof import("../../web/lib/live-data-schemas.ts"));
    const { cleanup } = require("@testing-library/react") as typeof import("@testing-library/react");
    afterEach(() => {
      cleanup();
      // A session check a test left unanswered must not be shared with the next test's app.
      const { forgetPendingSessionCheck } = require("../../web/lib/session-store.ts") as typeof import("../../web/lib/session-store.ts");
      forgetPendingSessionCheck();
    });
  }
}

// Marks this file as CommonJS for Bun (see above); it exports nothing.
module.exports = {};
