import { NotFound } from '../../components/not-found';

export default function PageNotFound() {
  return <NotFound list={{ href: '/', name: 'Home' }} />;
}
