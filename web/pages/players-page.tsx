import { PlayersView } from "../features/players/players-view.tsx";

export default function PlayersPage() {
  return <PlayersView />;
}
