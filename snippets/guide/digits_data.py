import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch.utils.data import DataLoader, Dataset, TensorDataset

digits = load_digits()  # 1797 8x8 images of handwritten digits, shipped with scikit-learn
X_train, X_test, y_train, y_test = train_test_split(
    digits.images, digits.target, test_size=0.25, random_state=0, stratify=digits.target
)
print("train", X_train.shape, "test", X_test.shape, "pixel range", X_train.min(), X_train.max())

# 1) Tensors that are already in memory: TensorDataset.
train_ds = TensorDataset(torch.tensor(X_train, dtype=torch.float32) / 16, torch.tensor(y_train))


# 2) A custom Dataset: __len__ and __getitem__, with a transform applied per item.
class DigitsDataset(Dataset):
    def __init__(self, images, labels, transform=None):
        self.images = torch.tensor(images, dtype=torch.float32).unsqueeze(1)  # (N, 1, 8, 8)
        self.labels = torch.tensor(labels, dtype=torch.long)
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image = self.images[idx]
        if self.transform is not None:
            image = self.transform(image)
        return image, self.labels[idx]


def normalize(image):
    return (image - 4.9) / 6.0  # roughly zero mean, unit variance for these pixels


test_ds = DigitsDataset(X_test, y_test, transform=normalize)
print(len(train_ds), len(test_ds), test_ds[0][0].shape, test_ds[0][1])

# DataLoader: batching, shuffling (seeded with its own generator), collation into tensors.
loader = DataLoader(test_ds, batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0))
images, labels = next(iter(loader))
print(images.shape, images.dtype, labels.shape, labels.dtype, len(loader), "batches")
print("first labels:", labels[:10].tolist())
