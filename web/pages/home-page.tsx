import { HomeView } from "../features/home/home-view.tsx";

export default function HomePage() {
  return <HomeView />;
}
