// An error page (the server's, error.html: no page at this address, an unknown player or
// tournament, another player's game): its words and links are the server's, in the reader's
// language; this module only fills the site header (the session, the theme switch).

import { initHeader } from "./common.js";

initHeader();
