//! Pages. There is one so far: the playground itself.

mod home;

pub use home::App;
