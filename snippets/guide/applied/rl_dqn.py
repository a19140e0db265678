"""DQN on Gymnasium's CartPole-v1: Q-network, replay buffer, target network, epsilon schedule."""

import os
import random
from collections import deque

import gymnasium as gym
import matplotlib
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import font_manager  # noqa: E402

# Labels in English; FIGURE_LANG=ja python rl_dqn.py draws them in Japanese (as on the Japanese pages).
JA = os.environ.get("FIGURE_LANG") == "ja"
if JA:  # a Japanese font is needed (Debian: fonts-ipafont-gothic); findfont raises ValueError without it
    font_manager.findfont("IPAGothic", fallback_to_default=False)
    plt.rcParams["font.family"] = ["IPAGothic", "DejaVu Sans"]
plt.rcParams["svg.fonttype"] = "path"  # text drawn as outlines: the SVG needs no font where it is viewed


def localized(english, japanese):
    """The label in the language chosen by FIGURE_LANG."""
    return japanese if JA else english


SEED = 0
random.seed(SEED)
np.random.seed(SEED)
torch.manual_seed(SEED)
torch.set_num_threads(1)  # tiny networks: one thread is faster and reproducible


class QNetwork(nn.Module):
    def __init__(self, n_obs, n_actions, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(n_obs, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, n_actions)

    def forward(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


class ReplayBuffer:
    def __init__(self, capacity):
        self.items = deque(maxlen=capacity)  # the oldest transitions fall out

    def push(self, obs, action, reward, next_obs, terminated):
        self.items.append((obs, action, reward, next_obs, terminated))

    def sample(self, batch_size):
        obs, action, reward, next_obs, terminated = zip(*random.sample(self.items, batch_size))
        return (
            torch.as_tensor(np.array(obs), dtype=torch.float32),
            torch.as_tensor(action),
            torch.as_tensor(reward, dtype=torch.float32),
            torch.as_tensor(np.array(next_obs), dtype=torch.float32),
            torch.as_tensor(terminated, dtype=torch.float32),
        )

    def __len__(self):
        return len(self.items)


def epsilon_at(step, start=1.0, end=0.05, decay_steps=5_000):
    # linear decay from start to end, then constant
    return max(end, start - (start - end) * step / decay_steps)


env = gym.make("CartPole-v1")  # no render_mode: nothing is drawn
env.action_space.seed(SEED)
n_obs, n_actions = env.observation_space.shape[0], env.action_space.n
online = QNetwork(n_obs, n_actions)
target = QNetwork(n_obs, n_actions)
target.load_state_dict(online.state_dict())
target.eval()
optimizer = torch.optim.Adam(online.parameters(), lr=1e-3)
buffer = ReplayBuffer(20_000)
gamma, batch_size, target_every = 0.99, 64, 500

returns, step = [], 0
obs, _ = env.reset(seed=SEED)
while step < 10_000:
    episode_return, done = 0.0, False
    while not done:
        if random.random() < epsilon_at(step):
            action = env.action_space.sample()
        else:
            with torch.no_grad():
                action = int(online(torch.as_tensor(obs, dtype=torch.float32)).argmax())
        next_obs, reward, terminated, truncated, _ = env.step(action)
        # store `terminated` only: a time-limit truncation is not the end of the task
        buffer.push(obs, action, reward, next_obs, terminated)
        obs, episode_return, step = next_obs, episode_return + reward, step + 1
        done = terminated or truncated

        if len(buffer) >= 1_000:
            o, a, r, o2, term = buffer.sample(batch_size)
            q = online(o).gather(1, a.unsqueeze(1)).squeeze(1)
            with torch.no_grad():
                q_next = target(o2).max(dim=1).values
            loss = F.smooth_l1_loss(q, r + gamma * (1.0 - term) * q_next)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(online.parameters(), 10.0)
            optimizer.step()
        if step % target_every == 0:
            target.load_state_dict(online.state_dict())
    returns.append(episode_return)
    obs, _ = env.reset()
env.close()

n = 20
first, last = float(np.mean(returns[:n])), float(np.mean(returns[-n:]))
print(f"episodes: more than {2 * n}: {len(returns) > 2 * n}")
print(f"mean return of the last {n} episodes > 3 x the first {n}: {last > 3 * first}")
assert last > 3 * first, (first, last)

fig, ax = plt.subplots(figsize=(6, 3.2))
ax.plot(returns, lw=0.8, alpha=0.5, label=localized("episode return", "エピソードの収益"))
window = np.convolve(returns, np.ones(n) / n, mode="valid")
ax.plot(range(n - 1, len(returns)), window, lw=2, label=localized(f"mean of {n}", f"{n} エピソードの平均"))
ax.set_xlabel(localized("episode", "エピソード"))
ax.set_ylabel(localized("return", "収益"))
ax.set_title(localized("DQN on CartPole-v1 (seed 0, 10,000 steps)", "CartPole-v1 での DQN(乱数シード 0、10,000 ステップ)"))
ax.legend(loc="upper left")
fig.tight_layout()
fig.savefig("dqn_return.svg", metadata={"Date": None})
