/** The router over every route (router.tsx): the member area's entry point (app-shell.tsx). */
import { useState } from "react";
import { RouterProvider } from "react-router-dom";
import { createAppRouter } from "./router.tsx";

export function AppRouter() {
  // Made once per mount: the shell mounts this once and keeps it.
  const [router] = useState(createAppRouter);
  return <RouterProvider router={router} />;
}
