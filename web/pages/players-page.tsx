import { PlaceholderPage } from "../components/placeholder-page.tsx";

export default function PlayersPage() {
  return <PlaceholderPage titleKey="players.title" />;
}
