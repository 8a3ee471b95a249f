import { render } from 'preact';
import { sessionClient } from './api/session-client';
import { clientShareApi } from './api/share-api';
import { reportConnection } from './live/connection';
import { GraphIndex } from './ui/graph-index';
import { NoticeAlerts } from './ui/notice-alerts';
import { SharePage } from './ui/share-page';
import './viewer.css';

const api = clientShareApi(sessionClient(reportConnection), reportConnection);
const root = document.getElementById('app')!;
const share = /^\/graphs\/([^/]+)$/.exec(location.pathname);
root.textContent = '';
render(
  <>
    {share ? (
      <SharePage api={api} graphId={decodeURIComponent(share[1]!)} />
    ) : (
      <GraphIndex api={api} />
    )}
    <NoticeAlerts />
  </>,
  root,
);
