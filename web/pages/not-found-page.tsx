import { Link } from "react-router-dom";
import { useText } from "../lib/text.ts";
import { paths } from "../paths.ts";

export default function NotFoundPage() {
  const t = useText();
  return (
    <section className="page page--message">
      <h1 className="page__title">{t("not_found.title")}</h1>
      <p className="page__note">{t("not_found.body")}</p>
      <Link className="button button--secondary" to={paths.home}>
        {t("not_found.home_link")}
      </Link>
    </section>
  );
}
