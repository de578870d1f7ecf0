/** The Bookings and Book pages as the router shows them, with the toasts (the watches' web parts live there). */
import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { ToastViewport } from "../../web/components/toast-viewport.tsx";
import { useSessionStore } from "../../web/lib/session-store.ts";
import BookPage from "../../web/pages/book-page.tsx";
import BookingsPage from "../../web/pages/bookings-page.tsx";
import { member } from "./book-fixtures.tsx";

export function renderPages(path: string) {
  useSessionStore.setState({ status: "authenticated", user: member, hasJustFinishedSetup: false });
  const router = createMemoryRouter(
    [
      { path: "/book", element: <BookPage /> },
      { path: "/bookings", element: <BookingsPage /> },
    ],
    { initialEntries: [path] },
  );
  return render(
    <>
      <RouterProvider router={router} />
      <ToastViewport />
    </>,
  );
}
