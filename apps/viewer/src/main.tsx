import { render } from 'preact';
import { httpShareApi } from './api/share-api';
import { GraphIndex } from './ui/graph-index';
import { SharePage } from './ui/share-page';
import './viewer.css';

const root = document.getElementById('app')!;
const share = /^\/graphs\/([^/]+)$/.exec(location.pathname);
root.textContent = '';
render(
  share ? <SharePage api={httpShareApi} graphId={decodeURIComponent(share[1]!)} /> : <GraphIndex api={httpShareApi} />,
  root,
);
