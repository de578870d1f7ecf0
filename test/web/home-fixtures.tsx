/**
 * Rendering helpers for the home tests. Kept out of the test file on purpose: an ES module the
 * test file imports directly (react-router-dom) is evaluated before test/helpers/dom.ts registers
 * the browser globals, while one imported through this module is not.
 */
import { render } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { HomeView } from "../../web/features/home/home-view.tsx";

export function renderHome(now: () => number) {
  return render(
    <MemoryRouter>
      <HomeView now={now} />
    </MemoryRouter>,
  );
}
