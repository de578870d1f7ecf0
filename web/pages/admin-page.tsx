import { PlaceholderPage } from "../components/placeholder-page.tsx";

export default function AdminPage() {
  return <PlaceholderPage titleKey="admin.title" />;
}
