use glam::Vec2;
use steering_arena::data::built_in;
use steering_arena::sim::mode::Mode;
use steering_arena::sim::player::Script;
use steering_arena::sim::world::{Input, World, WorldConfig};
fn main() {
    let data = built_in();
    let mut world = World::new(&data, WorldConfig { mode: Mode::Swarm, seed: 7, script: Script::Still, ..WorldConfig::default() });
    let input = Input::default();
    for t in 0..40 * 60 {
        world.tick(&input);
        if t % 300 == 299 {
            let pos: Vec<Vec2> = world.agents.iter().map(|a| a.body.pos).collect();
            let mut least = (f32::INFINITY, Vec2::ZERO);
            for (i, p) in pos.iter().enumerate() { for q in &pos[i+1..] { let d = p.distance(*q); if d < least.0 { least = (d, *p); } } }
            let far = world.agents.iter().map(|a| (a.body.pos.distance(world.player.pos), a.body.pos, a.state)).fold((0.0, Vec2::ZERO, ""), |m, x| if x.0 > m.0 { x } else { m });
            println!("t {:.0} least {:.1} at {:?}  farthest {:.0} at {:?} {}  player {:?}", t as f32/60.0, least.0, least.1, far.0, far.1, far.2, world.player.pos);
        }
    }
}
