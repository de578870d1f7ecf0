import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router-dom";
import { ToastViewport } from "./components/toast-viewport.tsx";
import { useTextStore } from "./lib/text-store.ts";
import { createAppRouter } from "./router.tsx";

const container = document.getElementById("root");
if (!container) throw new Error("The page has no #root element.");

// Public text overrides load alongside the session check; defaults show until they arrive.
void useTextStore.getState().loadTexts();

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={createAppRouter()} />
    <ToastViewport />
  </StrictMode>,
);
