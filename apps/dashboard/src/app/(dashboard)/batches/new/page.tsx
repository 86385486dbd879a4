import type { Metadata } from 'next';
import { BatchUpload } from './batch-upload';

export const metadata: Metadata = { title: 'Upload a batch' };

export default function NewBatchPage() {
  return (
    <>
      <h1>Upload a batch</h1>
      <BatchUpload />
    </>
  );
}
