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
                lazy: lazyComponent(() => import("./layout/main-layout.tsx")),
                children: [
                  {
                    // A page that throws shows the error screen inside the layout: header and tabs stay usable.
                    errorElement: <ErrorPage />,
                    children: [
                      { index: true, lazy: lazyComponent(() => import("./pages/home-page.tsx")) },
                      { path: paths.book, lazy: lazyComponent(() => import("./pages/book-page.tsx")) },
                      { path: paths.bookings, lazy: lazyComponent(() => import("./pages/bookings-page.tsx")) },
                      { path: paths.players, lazy: lazyComponent(() => import("./pages/players-page.tsx")) },
                      { path: paths.profile, lazy: lazyComponent(() => import("./pages/profile-page.tsx")) },
                      {
                        element: <RequireAdmin />,
                        children: [{ path: paths.admin, lazy: lazyComponent(() => import("./pages/admin-page.tsx")) }],
                      },
                      { path: "*", lazy: lazyComponent(() => import("./pages/not-found-page.tsx")) },
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
