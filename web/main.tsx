import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ToastViewport } from "./components/toast-viewport.tsx";
import { UpdateBanner } from "./components/update-banner.tsx";
import { afterFirstPaint } from "./lib/after-first-paint.ts";
import { keepOfflineSnapshot } from "./lib/offline-snapshot.ts";
import { registerServiceWorker } from "./lib/service-worker.ts";
import { useSessionStore } from "./lib/session-store.ts";
import { useTextStore } from "./lib/text-store.ts";
import { AppShell } from "./app-shell.tsx";

const container = document.getElementById("root");
if (!container) throw new Error("The page has no #root element.");

// The session check starts at once (index.html preloads its answer), while the page's code arrives.
void useSessionStore.getState().checkSession();
// The last bookings and requests seen, for the offline view; the worker keeps the app shell.
keepOfflineSnapshot();
// Text overrides (the kept ones show meanwhile) and the worker wait until the first screen is painted.
afterFirstPaint(() => {
  void useTextStore.getState().loadTexts();
  registerServiceWorker();
});

// The first render (the sign-in page, or the router with the member area: app-shell.tsx) starts in a
// task of its own, after this bundle's evaluation: two shorter tasks instead of one long one.
setTimeout(() => {
  const root = createRoot(container);
  // As a transition React renders in slices of a few milliseconds: no single long task on a slow phone.
  startTransition(() => {
    root.render(
      <StrictMode>
        <AppShell />
        <ToastViewport />
        <UpdateBanner />
      </StrictMode>,
    );
  });
}, 0);
