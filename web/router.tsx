/**
 * Every page of the app with its guard. The sign-in page is part of the first bundle; everything
 * behind it loads lazily as one chunk (web/pages/member-area.ts), the admin page as another, so a
 * visitor on /login downloads only the login code.
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
import LoginPage from "./pages/login-page.tsx";
import { paths } from "./paths.ts";

type LazyModule = { default: ComponentType };
type MemberAreaPart = "MainLayout" | "HomePage" | "BookPage" | "BookingsPage" | "PlayersPage" | "ProfilePage" | "SetupPage" | "NotFoundPage";

/** A component of the member area's chunk, which also brings the full text catalogue. */
const memberArea = (name: MemberAreaPart) => () => import("./pages/member-area.ts").then((area) => ({ default: area[name] }));

function lazyComponent(load: () => Promise<LazyModule>): RouteObject["lazy"] {
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
        children: [{ path: paths.login, Component: LoginPage }],
      },
      {
        element: <RequireSignIn />,
        children: [
          {
            element: <SetupOnlyWhenNeeded />,
            children: [{ path: paths.setup, lazy: lazyComponent(memberArea("SetupPage")) }],
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
