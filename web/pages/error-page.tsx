import { useEffect } from "react";
import { useRouteError } from "react-router-dom";
import { clientLog } from "../lib/client-log.ts";
import { useText } from "../lib/text.ts";

/** The catch-all screen for an unhandled interface error. */
export default function ErrorPage() {
  const t = useText();
  const error = useRouteError();

  useEffect(() => {
    clientLog.error("Unhandled interface error", {
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      path: window.location.pathname,
    });
  }, [error]);

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
