import { render } from 'solid-js/web';
import { App } from './App';
import './styles/base.css';
import './styles/results.css';
import './styles/details.css';

const root = document.getElementById('root');
if (root) render(() => <App />, root);
