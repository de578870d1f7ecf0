import { PlaceholderPage } from "../components/placeholder-page.tsx";

export default function HomePage() {
  return <PlaceholderPage titleKey="home.title" />;
}
