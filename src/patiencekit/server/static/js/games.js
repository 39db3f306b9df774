// The games, as the server lists them (GET /api/games): the one place the pages learn what a
// game is called, how its board is laid out, whether it is ranked, what its piles and its
// turn of the stock are called. No page writes a game's id or facts of its own.
//
// Each item: id, name, short_name, decks, rules_text, winnable_deals, blurb, lobby_cards,
// layout (the board's family), ranked, scored, draw, redeals, turn ("redeal" | "next-packet" |
// null), foundation_bases ([{rank, suit}] in layout order), pile_words ({kind: word}), solver.
// The list is fetched once per page; every caller shares the same answer.

import { api, ApiError } from "./api.js";

let listed = null;

/** Every game, in the registry's order (a promise, fetched once). */
export function games() {
  if (!listed) {
    listed = api.games().catch((e) => {
      listed = null; // a failed answer is asked again next time
      throw e;
    });
  }
  return listed;
}

/** Every game, or an empty list when the server refused the list: a board is still drawn,
 * by pile kind (an error that is not the server's answer is thrown). */
export async function gamesOrNone() {
  try {
    return await games();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return [];
  }
}

/** The game `id` of the list, or null when the list has no such game. */
export function findGame(list, id) {
  return (list || []).find((g) => g.id === id) || null;
}

/** The ranked games (tournaments, ranked play, a Top 100), in the registry's order. */
export async function rankedGames() {
  return (await games()).filter((g) => g.ranked);
}

/** A game's full name in the page's language (GET /api/games' local_name; its name, a proper
 * name in English, from an older server). */
export function gameName(g) {
  return g.local_name || g.name;
}

/** A game's name where space is short (tabs, lists); its id when the list lacks it. */
export function shortName(list, id) {
  const g = findGame(list, id);
  return g ? g.short_name || g.name : id;
}
