import { AdminArea } from "../features/admin/admin-area.tsx";

export default function AdminPage() {
  return <AdminArea />;
}
