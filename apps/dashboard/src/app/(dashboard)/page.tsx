import type { Metadata } from 'next';
import { HomeCharts } from './home-charts';

export const metadata: Metadata = { title: 'Home' };

export default function HomePage() {
  return <HomeCharts />;
}
