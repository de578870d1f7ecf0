import { ProfileView } from "../features/profile/profile-view.tsx";

export default function ProfilePage() {
  return <ProfileView />;
}
