/**
 * Every route of spec §2 with its guard. Pages and the main layout load lazily, so a visitor on
 * /login downloads only the login code.
 */
import type { ComponentType } from "react";
import { createBrowserRouter, type RouteObject } from "react-router-dom";
import {
  RedirectIfSignedIn,
  RequireAdmin,
  RequireProfile,
  RequireSignIn,
  SessionGate,
  SetupOnlyWhenNeeded,
} from "./features/auth/route-guards.tsx";
import { RouteLoading } from "./components/spinner.tsx";
import ErrorPage from "./pages/error-page.tsx";
import { paths } from "./paths.ts";
import { loadAllDefaultTexts } from "./lib/text.ts";

type LazyModule = { default: ComponentType };

/** The layout and the member pages share one chunk (web/pages/member-area.ts). */
const memberArea = (name: keyof typeof import("./pages/member-area.ts")) => () => import("./pages/member-area.ts").then((area) => ({ default: area[name] }));

/** A page's code, and the full text catalogue it reads, fetched side by side. */
function lazyComponent(load: () => Promise<LazyModule>): RouteObject["lazy"] {
  return async () => {
    const [module] = await Promise.all([load(), loadAllDefaultTexts()]);
    return { Component: module.default };
  };
}

/** The login page reads only the common and login texts, which the first chunk already has. */
function lazyLoginComponent(load: () => Promise<LazyModule>): RouteObject["lazy"] {
  return async () => ({ Component: (await load()).default });
}

export const appRoutes: RouteObject[] = [
  {
    element: <SessionGate />,
    errorElement: <ErrorPage />,
    // Shown while the first page's lazy code arrives.
    hydrateFallbackElement: <RouteLoading />,
    children: [
      {
        element: <RedirectIfSignedIn />,
        children: [{ path: paths.login, lazy: lazyLoginComponent(() => import("./pages/login-page.tsx")) }],
      },
      {
        element: <RequireSignIn />,
        children: [
          {
            element: <SetupOnlyWhenNeeded />,
            children: [{ path: paths.setup, lazy: lazyComponent(() => import("./pages/setup-page.tsx")) }],
          },
          {
            element: <RequireProfile />,
            children: [
              {
                lazy: lazyComponent(memberArea("MainLayout")),
                children: [
                  {
                    // A page that throws shows the error screen inside the layout: header and tabs stay usable.
                    errorElement: <ErrorPage />,
                    children: [
                      { index: true, lazy: lazyComponent(memberArea("HomePage")) },
                      { path: paths.book, lazy: lazyComponent(memberArea("BookPage")) },
                      { path: paths.bookings, lazy: lazyComponent(memberArea("BookingsPage")) },
                      { path: paths.players, lazy: lazyComponent(memberArea("PlayersPage")) },
                      { path: paths.profile, lazy: lazyComponent(memberArea("ProfilePage")) },
                      {
                        element: <RequireAdmin />,
                        children: [{ path: paths.admin, lazy: lazyComponent(() => import("./pages/admin-page.tsx")) }],
                      },
                      { path: "*", lazy: lazyComponent(memberArea("NotFoundPage")) },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
