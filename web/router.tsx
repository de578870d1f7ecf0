/**
 * Every page of the app with its guard. The router and the member pages are one chunk
 * (web/pages/member-area.ts), which the first bundle loads for any screen but a signed-out /login
 * (app-shell.tsx); the admin page is a chunk of its own on top of it. A visitor on /login downloads
 * only React and the sign-in page.
 */
import type { ComponentType } from "react";
import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { RedirectIfSignedIn, RequireAdmin, RequireProfile, RequireSignIn, SessionGate, SetupOnlyWhenNeeded } from "./features/auth/route-guards.tsx";
import { RouteLoading } from "./components/spinner.tsx";
import MainLayout from "./layout/main-layout.tsx";
import BookPage from "./pages/book-page.tsx";
import BookingsPage from "./pages/bookings-page.tsx";
import ErrorPage from "./pages/error-page.tsx";
import HomePage from "./pages/home-page.tsx";
import LoginPage from "./pages/login-page.tsx";
import NotFoundPage from "./pages/not-found-page.tsx";
import PlayersPage from "./pages/players-page.tsx";
import ProfilePage from "./pages/profile-page.tsx";
import SetupPage from "./pages/setup-page.tsx";
import { paths } from "./paths.ts";

type LazyModule = { default: ComponentType };

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
            children: [{ path: paths.setup, Component: SetupPage }],
          },
          {
            element: <RequireProfile />,
            children: [
              {
                Component: MainLayout,
                children: [
                  {
                    // A page that throws shows the error screen inside the layout: header and tabs stay usable.
                    errorElement: <ErrorPage />,
                    children: [
                      { index: true, Component: HomePage },
                      { path: paths.book, Component: BookPage },
                      { path: paths.bookings, Component: BookingsPage },
                      { path: paths.players, Component: PlayersPage },
                      { path: paths.profile, Component: ProfilePage },
                      {
                        element: <RequireAdmin />,
                        children: [{ path: paths.admin, lazy: lazyComponent(() => import("./pages/admin-page.tsx")) }],
                      },
                      { path: "*", Component: NotFoundPage },
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
