//! Steering behaviours: each file is one algorithm, a few lines of textbook maths that return a
//! steering force for the vehicle model.

pub mod seek;
