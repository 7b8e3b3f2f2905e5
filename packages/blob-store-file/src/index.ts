export { createFileBlobStore } from './file-blob-store';
