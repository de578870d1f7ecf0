/**
 * The first screen (decision 193). A visitor on /login gets the sign-in page straight from the
 * first bundle: React and the page, nothing else. Every other screen, and /login once the member
 * is signed in (or the server is out of reach), is the router with the member area, one chunk
 * that the page's index.html preloads. The router, once shown, stays: it owns navigation from then on.
 */
import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { RouteLoading } from "./components/spinner.tsx";
import { useSessionStore } from "./lib/session-store.ts";
import { useText } from "./lib/text.ts";
import LoginPage from "./pages/login-page.tsx";
import { paths } from "./paths.ts";

const AppRouter = lazy(() => import("./pages/member-area.ts").then((area) => ({ default: area.AppRouter })));

export function AppShell() {
  const status = useSessionStore((state) => state.status);
  const [hasRouter, setHasRouter] = useState(() => window.location.pathname !== paths.login);
  const needsRouter = hasRouter || status === "authenticated" || status === "offline";

  useEffect(() => {
    if (needsRouter) setHasRouter(true);
  }, [needsRouter]);

  if (needsRouter) {
    return (
      <Suspense fallback={<RouteLoading />}>
        <AppRouter />
      </Suspense>
    );
  }
  if (status === "unknown") return <RouteLoading />;
  return (
    <FirstScreenErrorBoundary>
      <LoginPage />
    </FirstScreenErrorBoundary>
  );
}

/** The catch-all screen for the sign-in page outside the router (the router's own is the error page). */
class FirstScreenErrorBoundary extends Component<{ children: ReactNode }, { hasFailed: boolean }> {
  state = { hasFailed: false };

  static getDerivedStateFromError() {
    return { hasFailed: true };
  }

  render() {
    return this.state.hasFailed ? <FirstScreenError /> : this.props.children;
  }
}

function FirstScreenError() {
  const t = useText();
  return (
    <section className="page page--message" role="alert">
      <h1 className="page__title">{t("error.title")}</h1>
      <p className="page__note">{t("error.body")}</p>
      <button type="button" className="button button--secondary" onClick={() => window.location.reload()}>
        {t("error.reload")}
      </button>
    </section>
  );
}
