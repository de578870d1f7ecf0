/** Renders the real route tree in memory, with the session already known, for guard and layout tests. */
import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { ToastViewport } from "../../../web/components/toast-viewport.tsx";
import { useSessionStore } from "../../../web/lib/session-store.ts";
import type { SessionUser } from "../../../web/lib/types.ts";
import { appRoutes } from "../../../web/router.tsx";

export interface RenderAppOptions {
  /** Signed-in user; null for an anonymous visitor. */
  user: SessionUser | null;
  hasJustFinishedSetup?: boolean;
}

export function setSession(user: SessionUser | null, hasJustFinishedSetup = false): void {
  useSessionStore.setState({ status: user ? "authenticated" : "anonymous", user, hasJustFinishedSetup });
}

export function renderApp(path: string, options: RenderAppOptions) {
  setSession(options.user, options.hasJustFinishedSetup);
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const view = render(
    <>
      <RouterProvider router={router} />
      <ToastViewport />
    </>,
  );
  return { router, ...view };
}

/**
 * The main heading of the page on screen, once its lazy route has loaded. The first load of a page
 * compiles its whole feature, which can take over a second on a busy machine.
 */
export async function findPageTitle(): Promise<string> {
  const heading = await screen.findByRole("heading", { level: 1 }, { timeout: 5000 });
  return heading.textContent ?? "";
}
