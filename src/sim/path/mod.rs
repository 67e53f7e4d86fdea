//! Finding the way on the tile grid (Bourg & Seemann ch. 7): one search with three frontier
//! orders (A*, Dijkstra, greedy best-first), string pulling that turns a tile path into the few
//! corners a body can walk straight between, and a flow field that answers every chaser of a
//! crowd with one Dijkstra map.

mod search;
mod smooth;

pub use search::{Order, Search, TileState, cost};
pub use smooth::{clear, smooth};
